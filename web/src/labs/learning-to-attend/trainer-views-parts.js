/**
 * The trainer lab's views below its controls, for <attn-attend-trainer> (`lab`), as Lit templates
 * (not elements): every head's attention maps, the learner's own input with the model's answer,
 * knocking heads out, and the notes under the hood (keeping the model in a file: trainer-file.js).
 */
import { html } from 'lit';
import { live } from 'lit/directives/live.js';
import { headRows } from './trainer-heads-model.js';
import {
  headList,
  inputText,
  judgeAnswer,
  LAYOUTS,
  percent,
  positionLabels,
  seqLen,
  tokenText,
} from './trainer-model.js';

/** Every head's attention map for the probe (`which` "probe") or the learner's input ("own"). */
export function headMaps(result, which, { title }) {
  if (!result?.[which]) return '';
  const { input, output, attention } = result[which];
  const task = result.task; // the drawing's own task and heads, until the next one is measured
  const labels = result.waiting
    ? Array.from({ length: seqLen(task) }, (_, i) => String(i))
    : positionLabels(task, input, output);
  const answer = judgeAnswer(task, input, output);
  return html`<h3>${title}</h3>
    ${result.waiting ? html`<p class="note">Loading the model…</p>` : ''}
    <p class="note" ?hidden=${Boolean(result.waiting)}>
      Input <span class="mono">${inputText(task, input)}</span>; answer
      <span class="mono probe-answer">${answer.map((a) => a.text).join(' ')}</span>
      ${answer.every((a) => a.ok) ? '(right)' : `(right answer: ${answer.map((a) => a.right).join(' ')})`}. Rows: the
      position reading; columns: the position read; dark is weight 0, bright is 1. Hover over or focus a cell for its
      weight.
    </p>
    <div class="maps">
      ${headList(attention.shape[0], attention.shape[1]).map(
        (h) =>
          html`<div class="map ${result.off.includes(h.key) ? 'off' : ''}">
            <attn-heatmap
              compact
              no-note
              class=${`${which}-map`}
              data-layer=${h.layer}
              data-head=${h.head}
              label=${`${which === 'probe' ? 'Probe' : 'Your input'}: ${h.name}${result.off.includes(h.key) ? ' (knocked out)' : ''}`}
              caption=${`Layer ${h.layer}, head ${h.head}${result.off.includes(h.key) ? ', knocked out' : ''}. Row: the position reading; column: the position it attends to.`}
              min="0"
              max="1"
              .rowLabels=${labels}
              .colLabels=${labels}
              .values=${headRows(attention, h.layer, h.head)}
            ></attn-heatmap>
          </div>`,
      )}
    </div>`;
}

/** The learner's own input: the field, keys to type with, the model's answer and its maps. */
export function ownSection(lab, result) {
  const s = lab.settings;
  const keys = s.task === 'lookup' ? [...'abcdefgh', ...'0123456789', '?'] : [...'0123456789'];
  const draft = lab.own.draft;
  const own = result?.own;
  const answer = own ? judgeAnswer(result.task, own.input, own.output) : null;
  return html`<section class="own" aria-labelledby="own-title">
    <h3 id="own-title">Your own input</h3>
    <label for="own-input"
      >${s.task === 'lookup' ? 'Four key–digit pairs, ?, a key (a3 c7 f1 h5 ? c)' : 'Six digits'}</label
    >
    <input
      id="own-input"
      type="text"
      autocomplete="off"
      spellcheck="false"
      aria-invalid=${draft?.error ? 'true' : 'false'}
      aria-describedby=${draft?.error ? 'own-error' : ''}
      .value=${live(draft ? draft.text : lab.own.input ? inputText(s.task, lab.own.input) : '')}
      @input=${(e) => lab.own.type(e.target.value)}
    />
    <div class="keys" role="group" aria-label="Type by clicking">
      ${keys.map((k) => html`<button type="button" @click=${() => lab.own.typeKey(k)}>${k}</button>`)}
      <button type="button" class="clear-own" @click=${() => lab.own.clear()}>Clear</button>
      <button type="button" class="random-own" @click=${() => lab.own.random(lab.session.trainer)}>
        Random example
      </button>
    </div>
    ${draft?.error ? html`<p class="field-error" id="own-error">${draft.error}</p>` : ''}
    ${
      answer
        ? html`<p>The model answers, token by token:</p>
            <ol class="answer" aria-label="The model's answer">
              ${answer.map(
                (a, i) =>
                  html`<li class=${a.ok ? 'ok' : 'wrong'} data-ok=${a.ok ? 'true' : 'false'}>
                    ${a.text}<span class="sr-only">${a.ok ? ', right' : `, wrong: the answer is ${a.right}`}</span>
                    ${a.ok ? '' : html`<span aria-hidden="true" title=${`answer ${i}: should be ${a.right}`}>✗</span>`}
                  </li>`,
              )}
            </ol>
            <p class="note own-verdict">
              ${answer.every((a) => a.ok) ? 'All right.' : `${answer.filter((a) => !a.ok).length} of ${answer.length} wrong (dashed); the right answer is ${answer.map((a) => a.right).join(' ')}.`}
            </p>
            ${headMaps(result, 'own', { title: 'Each head’s attention for your input' })}`
        : html`<p class="note">Type an input or press Random example to see the model’s answer.</p>`
    }
  </section>`;
}

/** Knock a head out: a button per head, the accuracy now, and without each head. */
export function ablationSection(lab, result) {
  const s = lab.settings;
  const heads = headList(s.layers, s.heads);
  return html`<section aria-labelledby="ablation-title">
    <h3 id="ablation-title">Knock a head out</h3>
    <p class="note">A knocked-out head still computes its weights, but its output is set to zero.</p>
    <div class="heads-off" role="group" aria-label="Knock out heads">
      ${heads.map(
        (h) =>
          html`<button
            type="button"
            data-head-key=${h.key}
            aria-pressed=${lab.knockouts.off.includes(h.key) ? 'true' : 'false'}
            ?disabled=${lab.training || lab.busy}
            @click=${() => lab.knockouts.toggle(h.key)}
          >
            Knock out ${h.name}
          </button>`,
      )}
    </div>
    ${
      result
        ? html`<p class="readout">
            Accuracy
            ${result.off.length ? `with ${result.off.length} head${result.off.length > 1 ? 's' : ''} knocked out` : 'with every head'}:
            <span class="ablated-accuracy">${percent(result.accuracy)}</span>
          </p>`
        : ''
    }
    ${
      result?.without?.length
        ? html`<table class="knockout">
            <caption class="sr-only">
              Accuracy without each head
            </caption>
            <thead>
              <tr>
                <th scope="col">head</th>
                <th scope="col">accuracy without it</th>
              </tr>
            </thead>
            <tbody>
              ${result.without.map(
                (w) =>
                  html`<tr data-head-key=${w.key}>
                    <td>${w.name}</td>
                    <td>${percent(w.accuracy)}</td>
                  </tr>`,
              )}
            </tbody>
          </table>`
        : ''
    }
  </section>`;
}
/** Under the hood: the model, how it trains and is measured, and its token ids, for settings `s`. */
export const trainerHood = (s) =>
  html`<p>
    The model is the engine's trainer (web/src/engine/trainer.js): token and position embeddings, ${s.layers}
    layer${s.layers > 1 ? 's' : ''} of causal attention with ${s.heads} head${s.heads === '1' ? '' : 's'}
    ${LAYOUTS[s.task].mlp ? 'and an MLP' : ''}, AdamW on batches of 32 fresh examples. Accuracy counts answer tokens
    right by greedy decoding on 256 examples of a fixed seed (128 while training). It runs in blocks of 5 steps (at most
    about 60 steps a second, so the maps can be followed) or, at full speed, 25 steps; after each the page measures and
    redraws. A link with a step count retrains from the seed to that step, so every machine with the SIMD build reaches
    the same weights. Knock-out accuracy uses 128 other examples. Token ids:
    ${s.task === 'lookup' ? 'keys a–h are 0–7, values 0–9 are 8–17, ? is 18' : `digits are 0–9, = is ${tokenText(s.task, 10)}`}.
  </p>`;
