//go:build amd64 && cgo

package dot

/*
#cgo CFLAGS: -O2
#include <stdint.h>
#include <immintrin.h>

#define BLOCK 2048

// How far ahead the coarse pass asks for its rows: eight rows of 512.
#define PF 2048

#define T512 "avx512f,avx512bw,avx512vl"

__attribute__((target(T512)))
static inline int64_t hsum512(__m512i s) {
	__m512i lo = _mm512_cvtepi32_epi64(_mm512_castsi512_si256(s));
	__m512i hi = _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(s, 1));
	return _mm512_reduce_add_epi64(_mm512_add_epi64(lo, hi));
}

#define NAME rows_vnni512
#define TARGET T512 ",avx512vnni"
#define MADD(acc, x, y) _mm512_dpwssd_epi32(acc, x, y)
#include "rows512_amd64.h"

#define NAME rows_bw512
#define TARGET T512
#define MADD(acc, x, y) _mm512_add_epi32(acc, _mm512_madd_epi16(x, y))
#include "rows512_amd64.h"

// AVX2: 16 components per step, one row at a time with two accumulators.
// A lane gains at most 2^23 per step, 128 steps a block.
__attribute__((target("avx2")))
static void rows_avx2(const int16_t *q, const int8_t *v, int64_t dim, int64_t n, int64_t *out) {
	for (int64_t r = 0; r < n; r++) {
		const int8_t *a = v + r * dim;
		int64_t t = 0;
		for (int64_t lo = 0; lo < dim; lo += BLOCK) {
			int64_t hi = lo + BLOCK < dim ? lo + BLOCK : dim, i = lo;
			__m256i s0 = _mm256_setzero_si256(), s1 = s0;
			for (; i + 32 <= hi; i += 32) {
				s0 = _mm256_add_epi32(s0, _mm256_madd_epi16(_mm256_loadu_si256((const __m256i *)(q + i)),
					_mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(a + i)))));
				s1 = _mm256_add_epi32(s1, _mm256_madd_epi16(_mm256_loadu_si256((const __m256i *)(q + i + 16)),
					_mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(a + i + 16)))));
			}
			s0 = _mm256_add_epi32(s0, s1);
			int32_t lanes[8];
			_mm256_storeu_si256((__m256i *)lanes, s0);
			for (int j = 0; j < 8; j++)
				t += lanes[j];
			for (; i < hi; i++)
				t += (int64_t)q[i] * a[i];
		}
		out[r] = t;
	}
}

// The baseline a scan is held to: the same bytes read start to end with
// as little work as reading allows (one vpsadbw a 32-byte load).
__attribute__((target("avx2")))
static int64_t stream_avx2(const uint8_t *v, int64_t n) {
	__m256i z = _mm256_setzero_si256(), s0 = z, s1 = z, s2 = z, s3 = z;
	int64_t i = 0;
	for (; i + 128 <= n; i += 128) {
		s0 = _mm256_add_epi64(s0, _mm256_sad_epu8(_mm256_loadu_si256((const __m256i *)(v + i)), z));
		s1 = _mm256_add_epi64(s1, _mm256_sad_epu8(_mm256_loadu_si256((const __m256i *)(v + i + 32)), z));
		s2 = _mm256_add_epi64(s2, _mm256_sad_epu8(_mm256_loadu_si256((const __m256i *)(v + i + 64)), z));
		s3 = _mm256_add_epi64(s3, _mm256_sad_epu8(_mm256_loadu_si256((const __m256i *)(v + i + 96)), z));
	}
	s0 = _mm256_add_epi64(_mm256_add_epi64(s0, s1), _mm256_add_epi64(s2, s3));
	int64_t lanes[4], t = 0;
	_mm256_storeu_si256((__m256i *)lanes, s0);
	for (int j = 0; j < 4; j++)
		t += lanes[j];
	for (; i < n; i++)
		t += v[i];
	return t;
}

// Nibble planes (nibble.go): 64 components a 32-byte group, the first 32
// in the low four bits of each byte, the next 32 in the high four. dim is
// a multiple of 64 here.
__attribute__((target("avx2")))
static void split_avx2(const int8_t *v, int64_t dim, uint8_t *hi, uint8_t *lo) {
	const __m256i m = _mm256_set1_epi8(15), eight = _mm256_set1_epi8(8);
	for (int64_t g = 0; g < dim; g += 64) {
		__m256i a = _mm256_loadu_si256((const __m256i *)(v + g));
		__m256i b = _mm256_loadu_si256((const __m256i *)(v + g + 32));
		__m256i ha = _mm256_xor_si256(_mm256_and_si256(_mm256_srli_epi16(a, 4), m), eight);
		__m256i hb = _mm256_xor_si256(_mm256_and_si256(_mm256_srli_epi16(b, 4), m), eight);
		__m256i la = _mm256_and_si256(a, m), lb = _mm256_and_si256(b, m);
		_mm256_storeu_si256((__m256i *)(hi + g / 2), _mm256_or_si256(ha, _mm256_slli_epi16(hb, 4)));
		_mm256_storeu_si256((__m256i *)(lo + g / 2), _mm256_or_si256(la, _mm256_slli_epi16(lb, 4)));
	}
}

__attribute__((target("avx2")))
static void join_avx2(const uint8_t *hi, const uint8_t *lo, int64_t dim, int64_t rows, int8_t *v) {
	const __m256i m = _mm256_set1_epi8(15), eight = _mm256_set1_epi8(8);
	const int64_t h = dim / 2;
	for (int64_t r = 0; r < rows; r++) {
		const uint8_t *hp = hi + r * h, *lp = lo + r * h;
		int8_t *out = v + r * dim;
		for (int64_t g = 0; g < dim; g += 64) {
			__m256i x = _mm256_loadu_si256((const __m256i *)(hp + g / 2));
			__m256i y = _mm256_loadu_si256((const __m256i *)(lp + g / 2));
			__m256i ha = _mm256_xor_si256(_mm256_and_si256(x, m), eight);
			__m256i hb = _mm256_xor_si256(_mm256_and_si256(_mm256_srli_epi16(x, 4), m), eight);
			__m256i la = _mm256_and_si256(y, m), lb = _mm256_and_si256(_mm256_srli_epi16(y, 4), m);
			_mm256_storeu_si256((__m256i *)(out + g), _mm256_or_si256(_mm256_slli_epi16(ha, 4), la));
			_mm256_storeu_si256((__m256i *)(out + g + 32), _mm256_or_si256(_mm256_slli_epi16(hb, 4), lb));
		}
	}
}

__attribute__((target("avx2")))
static inline int32_t hsum256(__m256i s) {
	__m128i x = _mm_add_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
	x = _mm_add_epi32(x, _mm_shuffle_epi32(x, 0x4e));
	x = _mm_add_epi32(x, _mm_shuffle_epi32(x, 0xb1));
	return _mm_cvtsi128_si32(x);
}

// The groups [g, g+64) of a row against the query's halves qa, qb:
// vpmaddubsw sums pairs of nibble × int8 products (at most 2 × 15 × 127,
// no saturation), added in int16 (four sums stay under 2^15).
__attribute__((target("avx2")))
static inline __m256i coarse_pairs(__m256i x, const int8_t *q) {
	const __m256i m = _mm256_set1_epi8(15);
	return _mm256_add_epi16(
		_mm256_maddubs_epi16(_mm256_and_si256(x, m), _mm256_loadu_si256((const __m256i *)q)),
		_mm256_maddubs_epi16(_mm256_and_si256(_mm256_srli_epi16(x, 4), m), _mm256_loadu_si256((const __m256i *)(q + 32))));
}

// One row: two groups (128 components) a step, widened to int32 with
// vpmaddwd once per step.
__attribute__((target("avx2")))
static inline int32_t coarse_row(const int8_t *q, int64_t dim, const uint8_t *a) {
	const __m256i ones = _mm256_set1_epi16(1);
	__m256i s = _mm256_setzero_si256();
	int64_t g = 0;
	for (; g + 128 <= dim; g += 128) {
		__m256i t = _mm256_add_epi16(coarse_pairs(_mm256_loadu_si256((const __m256i *)(a + g / 2)), q + g),
			coarse_pairs(_mm256_loadu_si256((const __m256i *)(a + g / 2 + 32)), q + g + 64));
		s = _mm256_add_epi32(s, _mm256_madd_epi16(t, ones));
	}
	if (g < dim)
		s = _mm256_add_epi32(s, _mm256_madd_epi16(coarse_pairs(_mm256_loadu_si256((const __m256i *)(a + g / 2)), q + g), ones));
	return hsum256(s);
}

__attribute__((target("avx2")))
static void coarse_avx2(const int8_t *q, int64_t dim, const uint8_t *hi, int64_t n, int32_t *out) {
	const int64_t h = dim / 2;
	for (int64_t r = 0; r < n; r++) {
		const uint8_t *a = hi + r * h; // prefetching past the end is harmless

		for (int64_t o = 0; o < h; o += 64)
			_mm_prefetch((const char *)(a + PF + o), _MM_HINT_T0);
		out[r] = coarse_row(q, dim, a);
	}
}

static void rows(int kernel, const int16_t *q, const int8_t *v, int64_t dim, int64_t n, int64_t *out) {
	switch (kernel) {
	case 0: rows_vnni512(q, v, dim, n, out); break;
	case 1: rows_bw512(q, v, dim, n, out); break;
	case 2: rows_avx2(q, v, dim, n, out); break;
	}
}
*/
import "C"

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// cKernel wraps the C kernel numbered id (see rows in the preamble), with
// the AVX2 nibble functions, which every CPU with these kernels runs.
func cKernel(name string, id int) Kernel {
	return Kernel{Name: name, rows: func(q []int16, v []int8, out []int64) {
		if len(q) == 0 {
			clear(out)
			return
		}
		C.rows(C.int(id), (*C.int16_t)(unsafe.Pointer(&q[0])), (*C.int8_t)(unsafe.Pointer(&v[0])),
			C.int64_t(len(q)), C.int64_t(len(out)), (*C.int64_t)(unsafe.Pointer(&out[0])))
	}, split: splitAVX2, join: joinAVX2, coarse: coarseAVX2}
}

func splitAVX2(v []int8, hi, lo []byte) {
	C.split_avx2((*C.int8_t)(unsafe.Pointer(&v[0])), C.int64_t(len(v)),
		(*C.uint8_t)(unsafe.Pointer(&hi[0])), (*C.uint8_t)(unsafe.Pointer(&lo[0])))
}

func joinAVX2(hi, lo []byte, dim, rows int, v []int8) {
	if rows == 0 {
		return
	}
	C.join_avx2((*C.uint8_t)(unsafe.Pointer(&hi[0])), (*C.uint8_t)(unsafe.Pointer(&lo[0])),
		C.int64_t(dim), C.int64_t(rows), (*C.int8_t)(unsafe.Pointer(&v[0])))
}

func coarseAVX2(q8 []int8, hi []byte, out []int32) {
	if len(q8) == 0 {
		clear(out)
		return
	}
	C.coarse_avx2((*C.int8_t)(unsafe.Pointer(&q8[0])), C.int64_t(len(q8)),
		(*C.uint8_t)(unsafe.Pointer(&hi[0])), C.int64_t(len(out)), (*C.int32_t)(unsafe.Pointer(&out[0])))
}

// Kernels lists every kernel this build can run on this CPU, Go first
// and the fastest last.
func Kernels() []Kernel {
	ks := []Kernel{Go}
	x := cpu.X86
	if x.HasAVX2 {
		ks = append(ks, cKernel("avx2", 2))
	}
	if x.HasAVX512F && x.HasAVX512BW && x.HasAVX512VL {
		ks = append(ks, cKernel("avx512bw", 1))
		if x.HasAVX512VNNI {
			ks = append(ks, cKernel("avx512vnni", 0))
		}
	}
	return ks
}

// Stream sums the bytes of v as unsigned: a read of v at the speed memory
// allows, the baseline benchmarks hold the scan to.
func Stream(v []int8) int64 {
	if len(v) == 0 || !cpu.X86.HasAVX2 {
		return streamGo(v)
	}
	return int64(C.stream_avx2((*C.uint8_t)(unsafe.Pointer(&v[0])), C.int64_t(len(v))))
}

func best() Kernel {
	ks := Kernels()
	return ks[len(ks)-1]
}
