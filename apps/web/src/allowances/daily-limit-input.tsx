import type { InputHTMLAttributes, Ref } from 'react';

/**
 * A daily limit in HST as a person types it: a non-negative decimal, checked against `HST_AMOUNT`
 * by the form before anything is sent. Text with a decimal keypad, as every amount field of the
 * app (`HstAmountField`): a number input would offer spinner steps and let the browser reformat
 * what was typed.
 */
export function DailyLimitInput({
  inputRef,
  ...rest
}: InputHTMLAttributes<HTMLInputElement> & { inputRef?: Ref<HTMLInputElement> }) {
  return (
    <input
      ref={inputRef}
      type="text"
      inputMode="decimal"
      autoComplete="off"
      spellCheck={false}
      {...rest}
    />
  );
}
