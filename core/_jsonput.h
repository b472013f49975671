/* The row writer's buffer (core/_jsonrows.pyx) and the two ways a piece goes into it, kept
   in C so that they are inlined into the row loop (as Cython functions the compiler called
   them, some 15 million times for issue 9's eight files). Room is reserved by the caller. */
#ifndef GLYPHSCOPE_JSONPUT_H
#define GLYPHSCOPE_JSONPUT_H

#include <stddef.h>
#include <string.h>

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
  } else {
    for (ptrdiff_t i = 0; i < size; ++i) {
      out[i] = text[i];
    }
  }
  buffer->size += size;
}

/* int.__repr__ of an int64: the digits, a minus sign before a negative value. */
JSON_PUT_INLINE void json_put_int(JsonBuffer* buffer, long long value) {
  char digits[24];
  int position = 24;
  unsigned long long magnitude =
      value < 0 ? (unsigned long long) (-(value + 1)) + 1 : (unsigned long long) value;
  do {
    digits[--position] = (char) ('0' + magnitude % 10);
    magnitude /= 10;
  } while (magnitude != 0);
  if (value < 0) {
    digits[--position] = '-';
  }
  json_put(buffer, digits + position, 24 - position);
}

#endif
