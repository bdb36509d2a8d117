// One AVX-512 kernel body, included once per instruction choice: define
// NAME (the function), TARGET (its target attribute) and MADD(acc, x, y)
// (acc plus the pairwise sums of the int16 products of x and y) first.
//
// Rows are taken four at a time so each query load serves four rows and
// four independent accumulators hide the multiply latency. Dimensions are
// summed in int32 lanes over blocks of BLOCK components, then in int64:
// a lane gains at most 2 * 32768 * 128 = 2^23 per step, 64 steps a block.

__attribute__((target(TARGET)))
static void NAME(const int16_t *q, const int8_t *v, int64_t dim, int64_t n, int64_t *out) {
	int64_t r = 0;
	for (; r + 4 <= n; r += 4) {
		const int8_t *a = v + r * dim, *b = a + dim, *c = b + dim, *d = c + dim;
		int64_t ta = 0, tb = 0, tc = 0, td = 0;
		for (int64_t lo = 0; lo < dim; lo += BLOCK) {
			int64_t hi = lo + BLOCK < dim ? lo + BLOCK : dim, i = lo;
			__m512i sa = _mm512_setzero_si512(), sb = sa, sc = sa, sd = sa;
			for (; i + 32 <= hi; i += 32) {
				__m512i x = _mm512_loadu_si512(q + i);
				sa = MADD(sa, x, _mm512_cvtepi8_epi16(_mm256_loadu_si256((const __m256i *)(a + i))));
				sb = MADD(sb, x, _mm512_cvtepi8_epi16(_mm256_loadu_si256((const __m256i *)(b + i))));
				sc = MADD(sc, x, _mm512_cvtepi8_epi16(_mm256_loadu_si256((const __m256i *)(c + i))));
				sd = MADD(sd, x, _mm512_cvtepi8_epi16(_mm256_loadu_si256((const __m256i *)(d + i))));
			}
			if (i < hi) { // masked loads read nothing past the mask
				__mmask32 m = (__mmask32)((1u << (hi - i)) - 1);
				__m512i x = _mm512_maskz_loadu_epi16(m, q + i);
				sa = MADD(sa, x, _mm512_cvtepi8_epi16(_mm256_maskz_loadu_epi8(m, a + i)));
				sb = MADD(sb, x, _mm512_cvtepi8_epi16(_mm256_maskz_loadu_epi8(m, b + i)));
				sc = MADD(sc, x, _mm512_cvtepi8_epi16(_mm256_maskz_loadu_epi8(m, c + i)));
				sd = MADD(sd, x, _mm512_cvtepi8_epi16(_mm256_maskz_loadu_epi8(m, d + i)));
			}
			ta += hsum512(sa);
			tb += hsum512(sb);
			tc += hsum512(sc);
			td += hsum512(sd);
		}
		out[r] = ta;
		out[r + 1] = tb;
		out[r + 2] = tc;
		out[r + 3] = td;
	}
	for (; r < n; r++) {
		const int8_t *a = v + r * dim;
		int64_t ta = 0;
		for (int64_t lo = 0; lo < dim; lo += BLOCK) {
			int64_t hi = lo + BLOCK < dim ? lo + BLOCK : dim, i = lo;
			__m512i sa = _mm512_setzero_si512();
			for (; i + 32 <= hi; i += 32)
				sa = MADD(sa, _mm512_loadu_si512(q + i),
					_mm512_cvtepi8_epi16(_mm256_loadu_si256((const __m256i *)(a + i))));
			if (i < hi) {
				__mmask32 m = (__mmask32)((1u << (hi - i)) - 1);
				sa = MADD(sa, _mm512_maskz_loadu_epi16(m, q + i),
					_mm512_cvtepi8_epi16(_mm256_maskz_loadu_epi8(m, a + i)));
			}
			ta += hsum512(sa);
		}
		out[r] = ta;
	}
}

#undef NAME
#undef TARGET
#undef MADD
