// Imported first by main.js, so that inside an LMS (`?lms=scorm12` or `?lms=scorm2004`) the LMS's
// progress is in place before the shell first draws (scorm.js). Without `lms` in the URL it does
// nothing.
import { startScorm } from './scorm.js';

startScorm();
