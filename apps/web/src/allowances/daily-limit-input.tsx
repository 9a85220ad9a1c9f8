import type { InputHTMLAttributes, Ref } from 'react';

/**
 * A daily limit in HST as a person types it: a non-negative decimal, checked against `HST_AMOUNT`
 * by the form before anything is sent (the browser's own number checks are off: `noValidate`).
 */
export function DailyLimitInput({
  inputRef,
  ...rest
}: InputHTMLAttributes<HTMLInputElement> & { inputRef?: Ref<HTMLInputElement> }) {
  return <input ref={inputRef} type="number" min={0} step="any" inputMode="decimal" {...rest} />;
}
