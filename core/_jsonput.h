/* The row writer's buffer (core/_jsonrows.pyx) and the two ways a piece goes into it, kept
   in C so that they are inlined into the row loop (as Cython functions the compiler called
   them, some 15 million times for issue 9's eight files). Room is reserved by the caller. */
#ifndef GLYPHSCOPE_JSONPUT_H
#define GLYPHSCOPE_JSONPUT_H

#include <stddef.h>
#include <string.h>

#include "ryu/digit_table.h"

#if defined(__GNUC__) || defined(__clang__)
#define JSON_PUT_INLINE static inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define JSON_PUT_INLINE static __forceinline
#else
#define JSON_PUT_INLINE static inline
#endif

typedef struct {
  char* data;
  ptrdiff_t size;
  ptrdiff_t capacity;
  /* NULL, or the str (a PyObject*, an owned reference) whose storage `data` is: a text
     buffer's bytes written straight into the str it hands over (_jsonrows.TextBuffer). */
  void* owner;
} JsonBuffer;

/* Most pieces are a few bytes and the keys between fields a few dozen: up to 32 copied as
   two fixed-size words that overlap (each read within the piece), which the compiler makes
   into single moves, instead of a call of memcpy. */
JSON_PUT_INLINE void json_put(JsonBuffer* buffer, const char* text, ptrdiff_t size) {
  char* out = buffer->data + buffer->size;
  if (size > 32) {
    memcpy(out, text, (size_t) size);
  } else if (size >= 16) {
    memcpy(out, text, 16);
    memcpy(out + size - 16, text + size - 16, 16);
  } else if (size >= 8) {
    memcpy(out, text, 8);
    memcpy(out + size - 8, text + size - 8, 8);
  } else if (size >= 4) {
    memcpy(out, text, 4);
    memcpy(out + size - 4, text + size - 4, 4);
  } else if (size >= 2) {
    memcpy(out, text, 2);
    memcpy(out + size - 2, text + size - 2, 2);
  } else if (size == 1) {
    out[0] = text[0];
  }
  buffer->size += size;
}

/* How many bytes json_put_padded copies at once. */
#define JSON_PADDED 32

/* json_put of a piece whose source can be read JSON_PADDED bytes from its start (a text the
   row writer copied with that much after it, a float text in its arena) into a buffer with
   JSON_PADDED bytes reserved past the piece: one copy of a fixed size, no branch on the
   size, whose bytes past the piece the next piece overwrites or the text's end cuts off. */
JSON_PUT_INLINE void json_put_padded(JsonBuffer* buffer, const char* text, ptrdiff_t size) {
  if (size <= JSON_PADDED) {
    memcpy(buffer->data + buffer->size, text, JSON_PADDED);
    buffer->size += size;
  } else {
    json_put(buffer, text, size);
  }
}

/* The decimal digits of `magnitude` written to end just before `end`, two at a time from
   Ryu's table of pairs (half the divisions of one at a time). */
JSON_PUT_INLINE void json_digits(char* end, unsigned long long magnitude) {
  while (magnitude >= 100) {
    const unsigned pair = (unsigned) (magnitude % 100) * 2;
    magnitude /= 100;
    end -= 2;
    memcpy(end, DIGIT_TABLE + pair, 2);
  }
  if (magnitude >= 10) {
    memcpy(end - 2, DIGIT_TABLE + magnitude * 2, 2);
  } else {
    end[-1] = (char) ('0' + magnitude);
  }
}

/* int.__repr__ of an int64, written in place: a minus sign before a negative value, then
   the digits, counted first (an int64 has at most 19, and 10**19 fits a uint64). */
JSON_PUT_INLINE void json_put_int(JsonBuffer* buffer, long long value) {
  char* out = buffer->data + buffer->size;
  unsigned long long magnitude = (unsigned long long) value;
  if (value < 0) {
    magnitude = (unsigned long long) (-(value + 1)) + 1;
    *out++ = '-';
  }
  int count = 1;
  for (unsigned long long bound = 10; count < 19 && magnitude >= bound; bound *= 10) {
    ++count;
  }
  json_digits(out + count, magnitude);
  buffer->size = (out + count) - buffer->data;
}

#endif
