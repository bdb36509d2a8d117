//go:build amd64 && cgo

package dot

/*
#cgo CFLAGS: -O2
#include <stdint.h>
#include <immintrin.h>

#define BLOCK 2048

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

// cKernel wraps the C kernel numbered id (see rows in the preamble).
func cKernel(name string, id int) Kernel {
	return Kernel{name, func(q []int16, v []int8, out []int64) {
		if len(q) == 0 {
			clear(out)
			return
		}
		C.rows(C.int(id), (*C.int16_t)(unsafe.Pointer(&q[0])), (*C.int8_t)(unsafe.Pointer(&v[0])),
			C.int64_t(len(q)), C.int64_t(len(out)), (*C.int64_t)(unsafe.Pointer(&out[0])))
	}}
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
