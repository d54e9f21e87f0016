/**
 * <attn-softmax-temperature id="t" logits="1.2,4.5,2,0.8" temperature="1">
 *
 * The softmax lab (attn-softmax-lab.js) under the name course pages and old lessons embed: bars of
 * softmax(logits / τ) with a log-scale temperature slider (τ from 0.01 to 100, and the exact
 * limits 0 and ∞), editable logits, entropy, the weights at a few temperatures, checks and code.
 *
 * State (permalink): logits (1 to 64 numbers), temperature (0 to Infinity), temperatures (the
 * comparison, 1 to 4 numbers). Attributes: label, caption. Reset, Export (the weight bars as
 * SVG/PNG, logits and weights as CSV/JSON); data-settled once the bars are drawn.
 */
import { AttnSoftmaxLab } from './attn-softmax-lab.js';

export class AttnSoftmaxTemperature extends AttnSoftmaxLab {
  defaultLabel = 'Softmax weights at temperature τ';
}

customElements.define('attn-softmax-temperature', AttnSoftmaxTemperature);
