import type { Static, TSchema } from '@sinclair/typebox';

/**
 * Compile-time checks that a route's TypeBox schema and the `@coinop/protocol` type the SDK and
 * the web app read are the same shape, so neither can change alone. Beside a schema:
 *
 *   declare const _allowance: SchemaMatches<typeof AllowanceSchema, Allowance>;
 *
 * `declare` emits nothing; a mismatch is a type error on that line showing both shapes.
 */
export type SchemaMatches<
  Schema extends TSchema,
  Wire extends SameShapeAs<Static<Schema>, Wire>,
> = Wire;

/**
 * Like SchemaMatches, for two types: a schema's static type with fields left out, or what a
 * route without a response schema returns.
 */
export type ShapeMatches<Actual, Wire extends SameShapeAs<Actual, Wire>> = Wire;

/** Any type when the two are the same shape; otherwise one no type satisfies, naming both. */
type SameShapeAs<Actual, Wire> =
  IsIdentical<DeepReadonly<Actual>, DeepReadonly<Wire>> extends true
    ? unknown
    : { shapesDiffer: { actual: Actual; wire: Wire } };

/** JSON has no readonly: the protocol marks answers readonly, TypeBox's static types do not. */
type DeepReadonly<T> = T extends readonly (infer Item)[]
  ? readonly DeepReadonly<Item>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/** Exact equality, optional and extra fields included (mutual assignability misses those). */
type IsIdentical<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
