/* float.__repr__'s text of a finite double, without David Gay's dtoa: Ryu (third_party/ryu,
   Ulf Adams, Boost Software License 1.0) finds the shortest digits that read back as the
   value and, of those, the nearest to it (ties to even) - the digits dtoa's mode 0 gives
   repr - about ten times faster; they are laid out here as repr lays them out (format 'r' of
   PyOS_double_to_string with Py_DTSF_ADD_DOT_0: an exponent below 1e-4 and from 1e16 on, at
   least two exponent digits with their sign, ".0" after an integer). The property tests of
   tests/test_json_rows.py hold it to float.__repr__. */
#ifndef GLYPHSCOPE_FLOAT_REPR_H
#define GLYPHSCOPE_FLOAT_REPR_H

#include "ryu/d2s.c"

/* The longest text written ("-2.2250738585072014e-308"). */
#define FLOAT_REPR_SIZE 25

/* Writes repr(value) of a finite value to `out` (FLOAT_REPR_SIZE bytes); returns its length. */
static inline int float_repr(double value, char* out) {
  const uint64_t bits = double_to_bits(value);
  const bool negative = (bits >> 63) != 0;
  const uint64_t ieee_mantissa = bits & ((1ull << DOUBLE_MANTISSA_BITS) - 1);
  const uint32_t ieee_exponent = (uint32_t) ((bits >> DOUBLE_MANTISSA_BITS) & 0x7ff);
  int length = 0;
  if (negative) {
    out[length++] = '-';
  }
  if (ieee_exponent == 0 && ieee_mantissa == 0) {
    memcpy(out + length, "0.0", 3);
    return length + 3;
  }
  floating_decimal_64 decimal;
  if (!d2d_small_int(ieee_mantissa, ieee_exponent, &decimal)) {
    decimal = d2d(ieee_mantissa, ieee_exponent);
  }
  while (decimal.mantissa % 10 == 0) { /* dtoa's digits end in a non-zero digit */
    decimal.mantissa /= 10;
    ++decimal.exponent;
  }
  char digits[17];
  const int count = (int) decimalLength17(decimal.mantissa);
  uint64_t rest = decimal.mantissa;
  int filled = count;
  while (filled >= 2) { /* two digits at a time, from Ryu's table of pairs */
    const uint32_t pair = (uint32_t) (rest % 100) * 2;
    rest /= 100;
    filled -= 2;
    memcpy(digits + filled, DIGIT_TABLE + pair, 2);
  }
  if (filled == 1) {
    digits[0] = (char) ('0' + rest);
  }
  /* The place of the decimal point after the first digit, as dtoa's decpt. */
  const int point = count + decimal.exponent;
  if (point <= -4 || point > 16) {
    out[length++] = digits[0];
    if (count > 1) {
      out[length++] = '.';
      memcpy(out + length, digits + 1, count - 1);
      length += count - 1;
    }
    int exponent = point - 1;
    out[length++] = 'e';
    out[length++] = exponent < 0 ? '-' : '+';
    if (exponent < 0) {
      exponent = -exponent;
    }
    if (exponent >= 100) {
      out[length++] = (char) ('0' + exponent / 100);
    }
    out[length++] = (char) ('0' + exponent / 10 % 10);
    out[length++] = (char) ('0' + exponent % 10);
  } else if (point <= 0) {
    out[length++] = '0';
    out[length++] = '.';
    for (int i = 0; i < -point; ++i) {
      out[length++] = '0';
    }
    memcpy(out + length, digits, count);
    length += count;
  } else if (point < count) {
    memcpy(out + length, digits, point);
    length += point;
    out[length++] = '.';
    memcpy(out + length, digits + point, count - point);
    length += count - point;
  } else {
    memcpy(out + length, digits, count);
    length += count;
    for (int i = count; i < point; ++i) {
      out[length++] = '0';
    }
    out[length++] = '.';
    out[length++] = '0';
  }
  return length;
}

#endif
