import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptions } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
} from 'class-validator';
import { HumanName } from 'src/platform/http/human-name';
import { SID_PATTERN } from 'src/platform/http/route-params';

/**
 * Whether a field may be left out: `optional` lets it be absent or null, `nullable` requires it but
 * lets it be null, `omittable` lets it be absent but never null. Unset, it must be given.
 */
export type Presence = 'optional' | 'nullable' | 'omittable';

interface FieldRule {
  presence?: Presence;
  /** The rule applies to each item of a list (see `List`), not to the field itself. */
  each?: boolean;
  /** The validation message, in place of class-validator's. */
  message?: string;
}

/** A text is bounded by its `max`, or by a `pattern` that bounds its length itself. */
export type TextRule = FieldRule & {
  min?: number;
  /** A name people read: no control, invisible or bidirectional character (`HumanName`). */
  human?: boolean;
} & ({ max: number; pattern?: RegExp } | { max?: number; pattern: RegExp });

export interface NumberRule extends FieldRule {
  min?: number;
  max?: number;
}

export interface ListRule {
  max: number;
  min?: number;
  presence?: Presence;
}

/** An http(s) URL with its scheme, on any host (`localhost` included). */
export const HTTP_URL = { protocols: ['http', 'https'], require_protocol: true, require_tld: false };

/**
 * Each composite below validates a field with class-validator and documents the same bounds, which the
 * Swagger plugin reads only from validators written on the property itself.
 */
export function Text(rule: TextRule): PropertyDecorator {
  const options = validation(rule);
  return field(
    rule,
    { minLength: rule.min, maxLength: rule.max },
    IsString(options),
    ...(rule.min === undefined ? [] : [MinLength(rule.min, options)]),
    ...(rule.max === undefined ? [] : [MaxLength(rule.max, options)]),
    ...(rule.pattern === undefined ? [] : [Matches(rule.pattern, options)]),
    ...(rule.human === true ? [HumanName(options)] : []),
  );
}

/** An sId of a resource: up to 40 letters, digits or underscores. */
export function SidRef(rule: FieldRule = {}): PropertyDecorator {
  const options = validation(rule);
  return field(rule, {}, IsString(options), Matches(SID_PATTERN, options));
}

/** One of `values`, documented as their enum. */
export function OneOf(values: readonly (string | number)[], rule: FieldRule = {}): PropertyDecorator {
  return field(rule, { enum: [...values], isArray: rule.each }, IsIn([...values], validation(rule)));
}

export function Integer(rule: NumberRule = {}): PropertyDecorator {
  const options = validation(rule);
  return field(rule, { minimum: rule.min, maximum: rule.max }, IsInt(options), ...bounds(rule, options));
}

/** A finite number: NaN and the infinities are refused. */
export function Decimal(rule: NumberRule = {}): PropertyDecorator {
  const options = validation(rule);
  return field(
    rule,
    { minimum: rule.min, maximum: rule.max },
    IsNumber({ allowNaN: false, allowInfinity: false }, options),
    ...bounds(rule, options),
  );
}

export function Flag(rule: FieldRule = {}): PropertyDecorator {
  return field(rule, {}, IsBoolean(validation(rule)));
}

/** An http(s) URL of at most `max` characters. */
export function HttpUrl(rule: FieldRule & { max: number }): PropertyDecorator {
  const options = validation(rule);
  return field(
    rule,
    { format: 'uri', maxLength: rule.max },
    IsUrl(HTTP_URL, options),
    MaxLength(rule.max, options),
  );
}

export function EmailAddress(rule: FieldRule = {}): PropertyDecorator {
  return field(rule, { format: 'email' }, IsEmail({}, validation(rule)));
}

/** A list of at most `max` items; their own rule is a composite above with `each: true`. */
export function List(rule: ListRule): PropertyDecorator {
  return field(
    rule,
    { minItems: rule.min, maxItems: rule.max },
    IsArray(),
    ...(rule.min === undefined ? [] : [ArrayMinSize(rule.min)]),
    ArrayMaxSize(rule.max),
  );
}

function field(
  rule: { presence?: Presence; each?: boolean },
  documented: ApiPropertyOptions,
  ...validators: PropertyDecorator[]
): PropertyDecorator {
  const presence = rule.each === true ? [] : presenceOf(rule.presence);
  return applyDecorators(ApiProperty(withoutUndefined(documented)), ...presence, ...validators);
}

function presenceOf(presence: Presence | undefined): PropertyDecorator[] {
  switch (presence) {
    case undefined:
      return [];
    case 'optional':
      return [IsOptional()];
    case 'nullable':
      return [ValidateIf((_, value) => value !== null)];
    case 'omittable':
      return [ValidateIf((_, value) => value !== undefined)];
  }
}

function bounds(rule: NumberRule, options: { each?: boolean; message?: string }): PropertyDecorator[] {
  return [
    ...(rule.min === undefined ? [] : [Min(rule.min, options)]),
    ...(rule.max === undefined ? [] : [Max(rule.max, options)]),
  ];
}

function validation(rule: FieldRule): { each?: boolean; message?: string } {
  return withoutUndefined({ each: rule.each, message: rule.message });
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}
