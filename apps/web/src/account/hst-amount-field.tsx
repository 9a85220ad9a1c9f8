import { useId, type ReactNode, type Ref } from 'react';

/**
 * An HST amount typed as an exact decimal (the page parses it to base units, never a float): a
 * labelled text field with the keypad for decimals and a hint it is described by.
 */
export function HstAmountField(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  hint: ReactNode;
  ref?: Ref<HTMLInputElement>;
}) {
  const id = useId();
  const hintId = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        ref={props.ref}
        inputMode="decimal"
        autoComplete="off"
        spellCheck={false}
        aria-describedby={hintId}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      />
      <p id={hintId} className="hint">
        {props.hint}
      </p>
    </div>
  );
}
