import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsObject, IsOptional, ValidateNested } from 'class-validator';

/** A request DTO class. */
type DtoClass = new () => object;

/** A body field holding one object, validated as `type`; the Swagger plugin documents it from its type. */
export function NestedObject(type: () => DtoClass): PropertyDecorator {
  return applyDecorators(IsObject(), ValidateNested(), Type(type));
}

/**
 * An optional list of at most `maxItems` objects, each validated as `type`. The bound is documented
 * here: the Swagger plugin reads only the validators written on the property itself.
 */
export function OptionalNestedList(type: () => DtoClass, maxItems: number): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ maxItems }),
    IsOptional(),
    IsArray(),
    ArrayMaxSize(maxItems),
    ValidateNested({ each: true }),
    Type(type),
  );
}
