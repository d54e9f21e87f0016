// Imported first by main.js, before the shell's elements are defined, so that inside an LMS
// (`?lms=scorm12` or `?lms=scorm2004`) the first page drawn already reads the LMS's progress
// (scorm.js). Without `lms` in the URL it does nothing.
import { startScorm } from './scorm.js';

startScorm();
