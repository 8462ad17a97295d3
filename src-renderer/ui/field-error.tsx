// A form's refusal put beside its boxes: the desk's issues placed by the field path each names (never by reading the
// message, whose wording may change), and each box marked invalid and described by its own.
import type { BridgeErrorIssue } from '../../src-shared/ipc/contract';

// The forms that place issues take their refusal here; it is the bridge's own conversion.
export { refusalOf } from '../bridge';

/**
 * The issues by box, the first for each ("x" is both too short and not the key's shape: the first says what is
 * wrong with it). `path`: the request field a box is sent as; an issue about a part of it goes beside it too.
 * `unplaced`: some of the refusal (all of it, when it came without issues) names no box, and must be told whole.
 */
export function placeIssues<F extends string>(issues: readonly BridgeErrorIssue[], fields: readonly F[], path: (field: F) => string = (f) => f): { errors: Partial<Record<F, string>>; unplaced: boolean } {
  const errors: Partial<Record<F, string>> = {};
  let unplaced = issues.length === 0;
  for (const issue of issues) {
    const field = fields.find((f) => issue.path === path(f) || issue.path.startsWith(`${path(f)}.`));
    if (field === undefined) unplaced = true;
    else errors[field] ??= issue.message;
  }
  return { errors, unplaced };
}

/** A box's marks: invalid, and described by its refusal's text (FieldError with the same id), while it has one. */
export function invalidMarks(id: string, error: string | undefined): { 'aria-invalid': boolean; 'aria-describedby'?: string } {
  return error === undefined ? { 'aria-invalid': false } : { 'aria-invalid': true, 'aria-describedby': id };
}

export function FieldError(props: { id: string; text: string | undefined }): React.JSX.Element | null {
  return props.text === undefined ? null : <span id={props.id} className="field-error" role="alert">{props.text}</span>;
}
