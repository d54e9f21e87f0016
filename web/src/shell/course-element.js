/**
 * CourseElement: the base of the shell elements that show the course (attn-home,
 * attn-lesson-list): a `lessons` property (lessons.js's list, in course order) and
 * rendering into the light DOM, styled by app.css. Not registered itself.
 */
import { AttnCell } from '../cells/base/attn-cell.js';

export class CourseElement extends AttnCell {
  static properties = { ...super.properties, lessons: { attribute: false } };

  constructor() {
    super();
    this.lessons = [];
  }

  createRenderRoot() {
    return this;
  }
}
