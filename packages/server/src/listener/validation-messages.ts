import { countText } from '@coinop/protocol';
import { PATTERN_TEXT_KEY } from './string-patterns.js';

/**
 * What a schema failure says after the field's path, as a person would write it: "is required",
 * "must not be blank", "must be one of: NORMAL, REVERSE", rather than Ajv's own wording
 * ("must have required property 'x'", `must match pattern "\S"`, "must be equal to one of the
 * allowed values"), which names no allowed value and quotes regular expressions.
 */

/** The parts of an Ajv error this reads (Fastify's `FastifySchemaValidationError`). */
export interface SchemaFailure {
  readonly keyword: string;
  readonly params: Record<string, unknown>;
  readonly message?: string | undefined;
  /**
   * The schema holding the failed keyword (Ajv's `verbose` option): a pattern's words
   * (string-patterns.ts), or its `description`.
   */
  readonly parentSchema?: unknown;
}

const FORMAT_TEXTS: Readonly<Record<string, string>> = {
  uuid: 'must be a UUID',
  'date-time': 'must be a date and time like 2025-01-31T12:00:00Z',
  date: 'must be a date like 2025-01-31',
  uri: 'must be a URL',
  email: 'must be an email address',
};

const TYPE_TEXTS: Readonly<Record<string, string>> = {
  integer: 'a whole number',
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

/** The words after the field's path, for the first failure of a request. */
export function validationText(failure: SchemaFailure): string {
  const { params } = failure;
  switch (failure.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not a field this request takes';
    case 'enum':
      return `must be one of: ${listed(params['allowedValues'])}`;
    case 'const':
      return `must be ${JSON.stringify(params['allowedValue'])}`;
    case 'type':
      return `must be ${[params['type']]
        .flat()
        .map((t) => TYPE_TEXTS[String(t)] ?? String(t))
        .join(' or ')}`;
    case 'pattern':
      return patternText(String(params['pattern']), failure.parentSchema);
    case 'format':
      return (
        FORMAT_TEXTS[String(params['format'])] ?? `must be a valid ${String(params['format'])}`
      );
    case 'minLength':
      return params['limit'] === 1
        ? 'must not be empty'
        : `must be at least ${count(params['limit'], 'character')} long`;
    case 'maxLength':
      return `must be at most ${count(params['limit'], 'character')} long`;
    case 'minimum':
      return `must be at least ${String(params['limit'])}`;
    case 'maximum':
      return `must be at most ${String(params['limit'])}`;
    case 'exclusiveMinimum':
      return `must be more than ${String(params['limit'])}`;
    case 'exclusiveMaximum':
      return `must be less than ${String(params['limit'])}`;
    case 'multipleOf':
      return `must be a multiple of ${String(params['multipleOf'])}`;
    case 'minItems':
      return `must have at least ${count(params['limit'], 'item')}`;
    case 'maxItems':
      return `must have at most ${count(params['limit'], 'item')}`;
    case 'uniqueItems':
      return 'must not list an item twice';
    case 'minProperties':
      return `must have at least ${count(params['limit'], 'field')}`;
    case 'maxProperties':
      return `must have at most ${count(params['limit'], 'field')}`;
    default:
      return failure.message ?? 'is not valid';
  }
}

/**
 * A pattern as its schema words it (string-patterns.ts); else as the schema's description says what
 * the value is; else quoted.
 */
function patternText(pattern: string, parentSchema: unknown): string {
  const words = schemaText(parentSchema, PATTERN_TEXT_KEY);
  if (words !== undefined) return words;
  const description = schemaText(parentSchema, 'description');
  if (description !== undefined) return `is not valid: it must be ${lowerFirst(description)}`;
  return `must match the pattern ${pattern}`;
}

/** A text annotation of the failed schema, if it has one. */
function schemaText(schema: unknown, key: string): string | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const text: unknown = (schema as Record<string, unknown>)[key];
  return typeof text === 'string' && text !== '' ? text : undefined;
}

function listed(values: unknown): string {
  return Array.isArray(values) ? values.map((v) => String(v)).join(', ') : String(values);
}

function count(limit: unknown, noun: string): string {
  return countText(Number(limit), noun);
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
