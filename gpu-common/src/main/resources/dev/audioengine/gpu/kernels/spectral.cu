// stft, istft (torch semantics, direct DFT sums with exact integer angle reduction) and magnitude.
#include "ae_tensor.h"

/** y [B, n/2+1, frames, 2]; x [B, T] through tx (padded [1, 1, B, T]); reflect padding by pad when centered. */
GC_KERNEL void ae_stft(float* GC_RESTRICT y, const float* GC_RESTRICT x, TD tx, const float* GC_RESTRICT win, i64 winStride,
                       i64 B, int nFft, int hop, i64 frames, int pad) {
    i64 T = tx.n[3], bins = nFft / 2 + 1, n = B * bins * frames;
    for (i64 o = gc_global_id(); o < n; o += gc_global_stride()) {
        i64 m = o % frames, f = (o / frames) % bins, b = o / (frames * bins);
        const float* xr = x + b * tx.s[2];
        float re = 0, im = 0;
        for (int j = 0; j < nFft; j++) {
            i64 src = m * hop + j - pad;
            if (src < 0) src = -src;
            if (src >= T) src = 2 * (T - 1) - src;
            float v = xr[src * tx.s[3]] * win[j * winStride];
            float s, c;
            gc_sincospi(-2.0f * (float) ((f * j) % nFft) / (float) nFft, &s, &c);
            re += v * c;
            im += v * s;
        }
        y[2 * o] = re;
        y[2 * o + 1] = im;
    }
}

/**
 * y [B, length]: inverse real DFT of each frame times the window, overlap-added, divided by the
 * overlap-added squared window; sample i of the output is sample start + i of the full signal.
 * spec [B, bins, frames, 2] through ts. An envelope at or below 1e-11 (NOLA fails) gives NaN.
 */
GC_KERNEL void ae_istft(float* GC_RESTRICT y, const float* GC_RESTRICT spec, TD ts, const float* GC_RESTRICT win, i64 winStride,
                        i64 B, i64 length, int nFft, int hop, int start) {
    i64 bins = ts.n[1], frames = ts.n[2], n = B * length;
    for (i64 o = gc_global_id(); o < n; o += gc_global_stride()) {
        i64 b = o / length, t = start + o % length;
        i64 mLo = t - nFft + 1 <= 0 ? 0 : (t - nFft + hop) / hop, mHi = t / hop;
        if (mHi > frames - 1) mHi = frames - 1;
        float acc = 0, env = 0;
        for (i64 m = mLo; m <= mHi; m++) {
            i64 j = t - m * hop;
            if (j < 0 || j >= nFft) continue;
            float w = win[j * winStride];
            float s = 0;
            for (i64 f = 0; f < bins; f++) {
                const float* z = spec + b * ts.s[0] + f * ts.s[1] + m * ts.s[2];
                float sn, cs;
                gc_sincospi(2.0f * (float) ((f * j) % nFft) / (float) nFft, &sn, &cs);
                bool selfConj = f == 0 || ((nFft & 1) == 0 && f == nFft / 2);
                float term = z[0] * cs - (selfConj ? 0.0f : z[ts.s[3]] * sn);
                s += selfConj ? term : 2.0f * term;
            }
            acc += s / (float) nFft * w;
            env += w * w;
        }
        y[o] = env > 1e-11f ? acc / env : gc_nan();
    }
}

/** |z| over the trailing pair axis; tz is z's row view ([..., 2] padded to rank 4). */
GC_KERNEL void ae_magnitude(i64 n, float* GC_RESTRICT y, const float* GC_RESTRICT z, TD tz) {
    for (i64 i = gc_global_id(); i < n; i += gc_global_stride()) {
        const float* p = z + td_row(tz, i);
        y[i] = hypotf(p[0], p[tz.s[3]]);
    }
}
