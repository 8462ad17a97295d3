/**
 * Above rows kept from the last read that answered, when a read since has failed: they must not pass for current.
 */
export function ReadFailed(props: { problem: string | undefined }): React.JSX.Element | null {
  if (props.problem === undefined) return null;
  return <p role="alert" className="note">Not updated, the last read failed: {props.problem}</p>;
}
