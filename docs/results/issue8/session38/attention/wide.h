// Tried in session 38, not shipped (1.26-1.37x slower than the shipped kernel in kbench WIDE=1).
// Harness-only: one item takes up to 24 rows of a head; K and V blocks converted once per item.
static void attend_rows_wide(const Row * rows, int R, const char * kbase, size_t nbk1, const char * vbase,
                             size_t nbv1, int64_t n_kv, int64_t DK, int64_t DV, float scale, Scratch & scratch,
                             std::vector<float> & Vf, std::vector<float> & accbuf) {
    const __m512 neg_inf = _mm512_set1_ps(-INFINITY);
    const __m512 vscale = _mm512_set1_ps(scale);
    const int64_t n_blocks = (n_kv + 15) / 16;
    float * S = scratch.S.data();
    float * Kf = scratch.K.data();
    for (int64_t b = 0; b < n_blocks; ++b) {
        const int64_t j0 = b * 16;
        const int nk = (int) std::min<int64_t>(16, n_kv - j0);
        const __mmask16 in_range = nk == 16 ? (__mmask16) 0xFFFF : (__mmask16) ((1u << nk) - 1);
        __mmask16 visible = 0;
        for (int r = 0; r < R; ++r) {
            const __m512 m = rows[r].mask ? _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(in_range, rows[r].mask + j0)) : _mm512_setzero_ps();
            visible |= _mm512_mask_cmp_ps_mask(in_range, m, neg_inf, _CMP_NEQ_UQ);
        }
        if (!visible) { for (int r = 0; r < R; ++r) _mm512_mask_storeu_ps(S + r * n_kv + j0, in_range, neg_inf); continue; }
        for (int i = 0; i < 16; ++i) {
            if (!((visible >> i) & 1)) continue;
            const ggml_fp16_t * kj = (const ggml_fp16_t *) (kbase + (j0 + i) * nbk1);
            for (int64_t c = 0; c < DK; c += 16)
                _mm512_storeu_ps(Kf + i * DK + c, _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *) (kj + c))));
        }
        for (int r = 0; r < R; ++r) {
            const __m512 m = rows[r].mask ? _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(in_range, rows[r].mask + j0)) : _mm512_setzero_ps();
            const float * q = rows[r].q;
            __m512 acc[16];
            { const __m512 qc = _mm512_loadu_ps(q);
              for (int i = 0; i < 16; ++i) acc[i] = _mm512_mul_ps(qc, _mm512_loadu_ps(Kf + i * DK)); }
            for (int64_t c = 16; c < DK; c += 16) {
                const __m512 qc = _mm512_loadu_ps(q + c);
                for (int i = 0; i < 16; ++i) acc[i] = _mm512_fmadd_ps(qc, _mm512_loadu_ps(Kf + i * DK + c), acc[i]);
            }
            const __m512 s = _mm512_fmadd_ps(sum_lanes16(acc), vscale, m);
            const __mmask16 masked = _mm512_cmp_ps_mask(m, neg_inf, _CMP_EQ_OQ);
            _mm512_mask_storeu_ps(S + r * n_kv + j0, in_range, _mm512_mask_mov_ps(s, masked, neg_inf));
        }
    }
    uint16_t * live = scratch.live.data();
    for (int64_t b = 0; b < n_blocks; ++b) live[b] = 0;
    for (int r = 0; r < R; ++r) {
        float * s = S + r * n_kv;
        __m512 vmax = neg_inf;
        for (int64_t j = 0; j < n_kv; j += 16) {
            const __mmask16 k = n_kv - j >= 16 ? (__mmask16) 0xFFFF : (__mmask16) ((1u << (n_kv - j)) - 1);
            vmax = _mm512_max_ps(vmax, _mm512_mask_loadu_ps(neg_inf, k, s + j));
        }
        const float mx = _mm512_reduce_max_ps(vmax);
        if (mx == -INFINITY) { for (int64_t j = 0; j < n_kv; ++j) s[j] = 0.0f; continue; }
        const __m512 vm = _mm512_set1_ps(mx);
        for (int64_t j = 0; j < n_kv; j += 16) {
            const __mmask16 k = n_kv - j >= 16 ? (__mmask16) 0xFFFF : (__mmask16) ((1u << (n_kv - j)) - 1);
            const __m512 e = ggml_v_expf(_mm512_sub_ps(_mm512_mask_loadu_ps(neg_inf, k, s + j), vm));
            _mm512_mask_storeu_ps(s + j, k, e);
            live[j / 16] |= _mm512_mask_cmp_ps_mask(k, e, _mm512_setzero_ps(), _CMP_NEQ_UQ);
        }
    }
    double sum[24]; float inv[24];
    for (int r = 0; r < R; ++r) sum[r] = 0.0;
    Vf.resize(16 * 64); accbuf.resize(24 * 64);
    for (int64_t c0 = 0; c0 < DV; c0 += 64) {
        for (int i = 0; i < R * 64; ++i) accbuf[i] = 0.0f;
        for (int64_t b = 0; b < n_blocks; ++b) {
            const unsigned bits0 = live[b];
            if (!bits0) continue;
            for (unsigned bits = bits0; bits; bits &= bits - 1) {
                const int i = __builtin_ctz(bits);
                const ggml_fp16_t * vj = (const ggml_fp16_t *) (vbase + (b * 16 + i) * nbv1) + c0;
                for (int k = 0; k < 4; ++k) _mm512_storeu_ps(&Vf[i * 64 + 16 * k], _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *) (vj + 16 * k))));
            }
            for (int g = 0; g < R; g += 6) {
                const int gr = std::min(6, R - g);
                __m512 acc[6][4];
                for (int r = 0; r < gr; ++r) for (int k = 0; k < 4; ++k) acc[r][k] = _mm512_loadu_ps(&accbuf[(g + r) * 64 + 16 * k]);
                for (unsigned bits = bits0; bits; bits &= bits - 1) {
                    const int i = __builtin_ctz(bits);
                    const int64_t j = b * 16 + i;
                    __m512 vv[4];
                    for (int k = 0; k < 4; ++k) vv[k] = _mm512_loadu_ps(&Vf[i * 64 + 16 * k]);
                    for (int r = 0; r < gr; ++r) {
                        const float p = S[(g + r) * n_kv + j];
                        if (c0 == 0) sum[g + r] += (double) p;
                        const __m512 vp = _mm512_set1_ps(p);
                        for (int k = 0; k < 4; ++k) acc[r][k] = _mm512_fmadd_ps(vp, vv[k], acc[r][k]);
                    }
                }
                for (int r = 0; r < gr; ++r) for (int k = 0; k < 4; ++k) _mm512_storeu_ps(&accbuf[(g + r) * 64 + 16 * k], acc[r][k]);
            }
        }
        if (c0 == 0) for (int r = 0; r < R; ++r) inv[r] = sum[r] == 0.0 ? 0.0f : (float) (1.0 / sum[r]);
        for (int r = 0; r < R; ++r) {
            const __m512 sc = _mm512_set1_ps(inv[r]);
            for (int k = 0; k < 4; ++k) _mm512_storeu_ps(rows[r].out + c0 + 16 * k, _mm512_mul_ps(_mm512_loadu_ps(&accbuf[r * 64 + 16 * k]), sc));
        }
    }
}
