import { AGGREGATE_KINDS, type FieldError } from '@bo/contracts';
import { BOARD_PATH, RERUN_PATH } from './board.ts';
import { BUILD_QUEUE } from '../queue/queues.ts';

/** A field of an url-encoded form: one value, or several when the name repeats. */
export type FormField = string | string[];

const escape = (s: FormField | undefined) =>
  String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

const STYLE = `body{font-family:system-ui,sans-serif;margin:2rem;max-width:48rem;color:#1f2937}
label{display:block;margin:.75rem 0 .25rem;font-weight:600}select,input{font:inherit;padding:.3rem}
button{margin-top:1rem;font:inherit;padding:.4rem 1rem}.errors{color:#b91c1c;border:1px solid #fca5a5;padding:.5rem 1.5rem;background:#fef2f2}
table{border-collapse:collapse;margin-top:1rem}td,th{border:1px solid #d1d5db;padding:.25rem .5rem;text-align:left}
output{display:block;margin-top:.5rem;color:#b91c1c}`;

/**
 * Checks the range in the browser before sending, with the server's rules (real yyyy-MM-dd days,
 * to ≥ from, at most data-max-days days); the server checks again.
 */
const RANGE_CHECK = `<script>(()=>{
const form=document.getElementById('rerun'),from=document.getElementById('from'),to=document.getElementById('to'),out=document.getElementById('range-check');
const max=Number(form.dataset.maxDays);
const day=(s)=>{if(!/^\\d{4}-\\d{2}-\\d{2}$/.test(s))return NaN;const t=Date.parse(s+'T00:00:00Z');return !Number.isNaN(t)&&new Date(t).toISOString().slice(0,10)===s?t:NaN;};
const check=()=>{from.setCustomValidity('');to.setCustomValidity('');
const a=day(from.value.trim()),b=day(to.value.trim());
if(Number.isNaN(a))from.setCustomValidity('From must be a real day written yyyy-MM-dd');
else if(Number.isNaN(b))to.setCustomValidity('To must be a real day written yyyy-MM-dd');
else if(b<a)to.setCustomValidity('To must not be before from');
else if((b-a)/864e5+1>max)to.setCustomValidity('The range may span at most '+max+' days');
out.textContent=from.validationMessage||to.validationMessage;};
from.addEventListener('input',check);to.addEventListener('input',check);
form.addEventListener('submit',(e)=>{check();if(!form.reportValidity())e.preventDefault();});
})();</script>`;

const layout = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title><style>${STYLE}</style></head>
<body><h1>${escape(title)}</h1>${body}<p><a href="${BOARD_PATH}">Back to the queues</a></p></body></html>`;

const dayInput = (name: string, value: FormField | undefined) =>
  `<input id="${name}" name="${name}" type="text" inputmode="numeric" placeholder="yyyy-MM-dd" pattern="\\d{4}-\\d{2}-\\d{2}" required autocomplete="off" value="${escape(value)}">`;

export interface RerunFormValues {
  kind?: FormField;
  from?: FormField;
  to?: FormField;
}

export interface RerunFormSettings {
  /** The form token the POST must carry (see same-origin.ts). */
  token: string;
  /** Longest range, checked in the browser before sending. */
  maxDays: number;
}

/**
 * The form; after a refused submit it keeps what was typed and lists each problem by field.
 * Days are typed as yyyy-MM-dd text, whatever the browser's locale (a date picker would show
 * them in the locale's order).
 */
export function rerunFormPage(settings: RerunFormSettings, values: RerunFormValues = {}, errors: FieldError[] = []): string {
  const options = ['all', ...AGGREGATE_KINDS]
    .map((k) => `<option value="${k}"${values.kind === k ? ' selected' : ''}>${k}</option>`)
    .join('');
  const problems = errors.length
    ? `<div class="errors" role="alert"><p>The rerun was not queued:</p><ul>${errors
        .map((e) => `<li><strong>${escape(e.field)}</strong> ${escape(e.message)}</li>`)
        .join('')}</ul></div>`
    : '';
  return layout(
    'Rerun aggregates',
    `${problems}<p>Queues one build per aggregate and month of the range, each replacing its days at once; a build already queued or running is not queued twice.</p>
<form id="rerun" method="post" action="${RERUN_PATH}" data-max-days="${settings.maxDays}">
<input type="hidden" name="_csrf" value="${escape(settings.token)}">
<label for="kind">Aggregate</label><select id="kind" name="kind">${options}</select>
<label for="from">From (yyyy-MM-dd)</label>${dayInput('from', values.from)}
<label for="to">To, inclusive (yyyy-MM-dd)</label>${dayInput('to', values.to)}
<output id="range-check" for="from to" aria-live="polite"></output>
<div><button type="submit">Queue rerun</button></div></form>${RANGE_CHECK}`,
  );
}

export function rerunQueuedPage(jobs: { target: string; jobId: string; collapsed: boolean }[]): string {
  const rows = jobs
    .map(
      (j) =>
        `<tr><td>${escape(j.target)}</td><td><a href="${BOARD_PATH}/queue/${BUILD_QUEUE}/${encodeURIComponent(j.jobId)}">${escape(j.jobId)}</a></td><td>${
          j.collapsed ? 'already queued or running' : 'queued'
        }</td></tr>`,
    )
    .join('');
  return layout(
    'Rerun queued',
    `<p role="status">${jobs.length} build job(s) queued.</p><table><thead><tr><th>build</th><th>job</th><th></th></tr></thead><tbody>${rows}</tbody></table>
<p><a href="${RERUN_PATH}">Queue another rerun</a></p>`,
  );
}
