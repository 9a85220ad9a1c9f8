/** A build step with inputs and outputs, paths relative to the root. */
export interface BuildStep {
  readonly name: string;
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
  readonly run: () => void | Promise<void>;
}

export function hashInputs(root: string, paths: readonly string[]): string;

export function runUnlessUpToDate(options: {
  root: string;
  stampDir: string;
  step: BuildStep;
  force?: boolean;
}): Promise<boolean>;
