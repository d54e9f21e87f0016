/**
 * <attn-copy-torch></attn-copy-torch>
 *
 * Lesson heads-that-copy's PyTorch cell (copy-torch.js): the copying lab's model, data rule,
 * training loop and probe in PyTorch, for seed 1 (the committed model's), as an attn-code. A cell of
 * its own, with no state, so that it is the same code whatever the lab above is set to (the lab's
 * settings are a model trained in the page; this cell trains its own, on a text of its own).
 */
import { html } from 'lit';
import { AttnCell } from '../../cells/base/attn-cell.js';
import { COPY_TORCH, copyTorchParams } from './copy-torch.js';

export class AttnCopyTorch extends AttnCell {
  renderCell() {
    return html`<attn-code
      label="PyTorch: the same model, data and probe"
      .template=${COPY_TORCH}
      .params=${copyTorchParams({ seed: 1 })}
    ></attn-code>`;
  }
}

customElements.define('attn-copy-torch', AttnCopyTorch);
