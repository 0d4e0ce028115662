package dev.audioengine.api.graph;

import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;

/**
 * What a graph node computes. The semantics of every op are defined once, in double precision,
 * by the ReferenceEvaluator of module dev.audioengine.reference; backends must agree with it.
 * Activations are F32 unless an op says otherwise.
 */
public sealed interface Op {

    /** Short, stable name used by the support matrix, the conformance suite and run summaries. */
    String opName();

    /** True for ops whose output aliases the storage of their first input (no kernel runs). */
    default boolean isView() {
        return false;
    }

    /**
     * The op families: the one grouping every module uses for its files, classes and kernels
     * (reference, conformance, the CPU kernel packages, gpu-common's op classes, {@code kernels/<family>.cu},
     * Vulkan's kernels and shaders), so that {@code grep -i} for a family's name finds all of an op's code.
     * The sections of this file follow the same order.
     */
    enum Family {
        /** Inputs, constants and persistent state: named, never computed. */
        LEAF,
        /** Per-element maps of one or two broadcast operands. */
        ELEMENTWISE,
        /** Matrix products and convolutions: the ops that go through a GEMM. */
        LINEAR,
        /** Moving, viewing, converting and writing elements without arithmetic across them. */
        LAYOUT,
        /** Ops that reduce along one axis: the norms, softmax, sums and argmax. */
        REDUCTION,
        /** Ops over a sequence of tokens or steps: embeddings, rotary positions, attention, masks, recurrence. */
        SEQUENCE,
        /** Short-time Fourier transforms and complex magnitudes. */
        SPECTRAL;

        /** Lower-case name, as used in file, package and kernel names ({@code reduction}, {@code kernels/reduction.cu}). */
        public String id() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** This op's family; exhaustive over the sealed hierarchy, so a new op does not compile until it has one. */
    default Family family() {
        return switch (this) {
            case Input i -> Family.LEAF;
            case Constant c -> Family.LEAF;
            case State s -> Family.LEAF;
            case Binary b -> Family.ELEMENTWISE;
            case Unary u -> Family.ELEMENTWISE;
            case Scale s -> Family.ELEMENTWISE;
            case Snake s -> Family.ELEMENTWISE;
            case MatMul m -> Family.LINEAR;
            case Conv1d c -> Family.LINEAR;
            case ConvTranspose1d c -> Family.LINEAR;
            case Pad p -> Family.LAYOUT;
            case Concat c -> Family.LAYOUT;
            case Slice s -> Family.LAYOUT;
            case Permute p -> Family.LAYOUT;
            case Reshape r -> Family.LAYOUT;
            case Contiguous c -> Family.LAYOUT;
            case WriteSlice w -> Family.LAYOUT;
            case Cast c -> Family.LAYOUT;
            case LayerNorm l -> Family.REDUCTION;
            case RmsNorm r -> Family.REDUCTION;
            case GroupNorm g -> Family.REDUCTION;
            case Softmax s -> Family.REDUCTION;
            case Reduce r -> Family.REDUCTION;
            case Argmax a -> Family.REDUCTION;
            case GetRows g -> Family.SEQUENCE;
            case Rope r -> Family.SEQUENCE;
            case Attention a -> Family.SEQUENCE;
            case KeyMask k -> Family.SEQUENCE;
            case Lstm l -> Family.SEQUENCE;
            case Stft s -> Family.SPECTRAL;
            case Istft i -> Family.SPECTRAL;
            case Magnitude m -> Family.SPECTRAL;
        };
    }

    // ---- leaf ------------------------------------------------------------------------------

    /** A value supplied at run time. */
    record Input(String name) implements Op {
        public String opName() {
            return "input";
        }
    }

    /** A weight or constant; uploaded once per backend and shared by every graph using it. */
    record Constant(HostTensor value) implements Op {
        public String opName() {
            return "constant";
        }
    }

    /**
     * Persistent state: a tensor that lives in device memory across runs (recurrent state, KV
     * caches, streaming convolution caches). The graph only names it; {@code
     * AudioEngine.compile(graph, states...)} binds it to a {@link dev.audioengine.api.exec.PersistentTensor}
     * of that name, dtype and shape, which the engine never uploads or plans. Reading the leaf
     * gives the contents the run started with; {@link WriteSlice} changes them in place.
     */
    record State(String name) implements Op {
        public String opName() {
            return "state";
        }
    }

    // ---- elementwise -----------------------------------------------------------------------

    enum BinaryKind {
        ADD,
        SUB,
        MUL,
        DIV,
        POW
    }

    /** Elementwise a (op) b with NumPy broadcasting. */
    record Binary(BinaryKind kind) implements Op {
        public String opName() {
            return kind.name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    enum UnaryKind {
        RELU,
        GELU_ERF,
        GELU_TANH,
        SILU,
        TANH,
        SIGMOID,
        ELU,
        EXP,
        LOG,
        SQRT,
        NEG,
        ABS,
        SQR,
        SIN,
        COS
    }

    /** Elementwise f(x); {@code alpha} is ELU's alpha and ignored by the others. */
    record Unary(UnaryKind kind, float alpha) implements Op {
        public String opName() {
            return kind.name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** y = x * scale + bias. */
    record Scale(float scale, float bias) implements Op {
        public String opName() {
            return "scale";
        }
    }

    /** Snake activation: x + sin²(alpha·x) / (alpha + 1e-9), alpha per channel; x [B, C, T], alpha [C]. */
    record Snake() implements Op {
        public String opName() {
            return "snake";
        }
    }

    // ---- linear: matrix products and convolution ----------------------------------------------

    /**
     * y[..., m, n] = Σ_k x[..., m, k] · w[..., n, k] (PyTorch's {@code x @ w.T}: weights are stored
     * [out, in] so quantized rows run along k). Batch dimensions broadcast. x is F32; w is F32,
     * F16, BF16, Q8_0 or Q4_0.
     */
    record MatMul() implements Op {
        public String opName() {
            return "matmul";
        }
    }

    /** x [B, Cin, T], w [Cout, Cin/groups, K], optional bias [Cout] → [B, Cout, Tout]. */
    record Conv1d(int stride, int padding, int dilation, int groups) implements Op {
        public String opName() {
            return "conv1d";
        }
    }

    /** x [B, Cin, T], w [Cin, Cout/groups, K], optional bias [Cout] → [B, Cout, Tout] (PyTorch's ConvTranspose1d). */
    record ConvTranspose1d(int stride, int padding, int outputPadding, int dilation, int groups) implements Op {
        public String opName() {
            return "conv_transpose1d";
        }
    }

    // ---- layout --------------------------------------------------------------------------------

    enum PadMode {
        ZERO,
        REFLECT,
        REPLICATE
    }

    /** Pads each axis by before[i] and after[i] elements; ZERO fills with {@code value}. */
    record Pad(PadMode mode, long[] before, long[] after, float value) implements Op {
        public Pad {
            before = before.clone();
            after = after.clone();
        }

        public String opName() {
            return "pad";
        }
    }

    record Concat(int axis) implements Op {
        public String opName() {
            return "concat";
        }
    }

    /** View of elements start, start+step, ... {@literal <} end along one axis. */
    record Slice(int axis, long start, long end, long step) implements Op {
        public String opName() {
            return "slice";
        }

        public boolean isView() {
            return true;
        }
    }

    /** View with axes reordered: output axis i is input axis perm[i]. Transpose is a permute. */
    record Permute(int[] perm) implements Op {
        public Permute {
            perm = perm.clone();
        }

        public String opName() {
            return "permute";
        }

        public boolean isView() {
            return true;
        }
    }

    /** View with a new shape of the same element count; the input must be contiguous. */
    record Reshape(Shape shape) implements Op {
        public String opName() {
            return "reshape";
        }

        public boolean isView() {
            return true;
        }
    }

    /** Copies any (strided) view into a new row-major tensor. */
    record Contiguous() implements Op {
        public String opName() {
            return "contiguous";
        }
    }

    /**
     * Writes src into the persistent tensor dst in place; the result is dst's new contents, a
     * node whose storage is the persistent tensor itself. Inputs: dst (a whole {@link State} or
     * the result of an earlier write to it), src of dst's shape except along {@code axis}, and
     * an optional start, I32 [1] (read at run time, so one compiled graph serves every
     * position): elements [start, start + len) along {@code axis} take src's values, the rest
     * keep theirs. Without start, src has dst's shape and replaces it whole (recurrent state).
     * A start of I32 [B], B = dst's first dimension and {@code axis} &gt; 0, gives each batch
     * element its own start (a batched decoder step: sequence b writes its key at its own
     * position), and a negative start[b] skips batch element b (an empty slot writes nothing).
     * A single start &lt; 0, or any start + len &gt; dst's size along axis, is an error; the CPU
     * backend throws, GPU backends drop the elements that fall outside (they cannot throw from a
     * kernel). F32.
     */
    record WriteSlice(int axis) implements Op {
        public String opName() {
            return "write_slice";
        }
    }

    /** Converts between F32 and F16, BF16, Q8_0, Q4_0, I32 (round to nearest; I32 halves round up, NaN to 0, saturating, like Math.round). */
    record Cast(DType to) implements Op {
        public String opName() {
            return "cast";
        }
    }

    // ---- reduction: norms, softmax and reductions along an axis ---------------------------------

    /** Over the last axis; optional gamma and beta [N]. */
    record LayerNorm(float eps) implements Op {
        public String opName() {
            return "layer_norm";
        }
    }

    /** x / sqrt(mean(x²) + eps) over the last axis; optional gamma [N]. */
    record RmsNorm(float eps) implements Op {
        public String opName() {
            return "rms_norm";
        }
    }

    /** x [B, C, ...] normalized per (batch, group of C/groups channels); optional gamma and beta [C]. */
    record GroupNorm(int groups, float eps) implements Op {
        public String opName() {
            return "group_norm";
        }
    }

    /**
     * softmax(x·scale + mask) over the last axis; optional additive mask broadcast to x (may hold -inf).
     * A row that is -inf everywhere gives zeros.
     */
    record Softmax(float scale) implements Op {
        public String opName() {
            return "softmax";
        }
    }

    enum ReduceKind {
        SUM,
        MEAN,
        MAX
    }

    record Reduce(ReduceKind kind, int axis, boolean keepDim) implements Op {
        public String opName() {
            return kind.name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** Index of the largest value along an axis (first one on ties; NaN counts as largest), as I32, axis removed. */
    record Argmax(int axis) implements Op {
        public String opName() {
            return "argmax";
        }
    }

    // ---- sequence ---------------------------------------------------------------------------------

    /** Embedding lookup: table [V, D] (any dtype), ids I32 [...] → F32 [..., D]. */
    record GetRows() implements Op {
        public String opName() {
            return "get_rows";
        }
    }

    enum RopeMode {
        NORMAL,
        NEOX
    }

    /**
     * Rotary position embedding on x [B, H, T, D] with positions I32 [T]. The first {@code dims}
     * values of D rotate: NORMAL pairs (2i, 2i+1), NEOX pairs (i, i + dims/2); θ = pos·base^(-2i/dims).
     */
    record Rope(int dims, float base, RopeMode mode) implements Op {
        public String opName() {
            return "rope";
        }
    }

    /**
     * Fused attention: softmax(q·kᵀ·scale + mask [+ causal]) · v. q [B, H, Tq, D]; k, v
     * [B, Hkv, Tk, D] with H a multiple of Hkv (grouped queries), F32, F16 or BF16; optional
     * additive mask [Tq, Tk] (every batch element) or [B, 1, Tq, Tk] (one per batch element, every
     * head: sequences of different lengths in one batch). Causal masks key j > query i + (Tk - Tq). Query head h reads kv head
     * h / (H / Hkv); a query that can see no key gives zeros.
     */
    record Attention(float scale, boolean causal) implements Op {
        public String opName() {
            return "attention";
        }
    }

    /**
     * The additive mask [Tq, Tk] of attention over a fixed-capacity cache that holds
     * {@code length} keys (I32 [1], read at run time): 0 where query i may see key j, -inf
     * elsewhere. With lengths I32 [B] (a batch of caches of one capacity, each holding its own
     * number of keys) the mask is [B, 1, Tq, Tk], batch element b masked by length[b]. Key j is visible when j &lt; length, and with {@code causal} only when
     * j &lt;= length - Tq + i (the Tq queries are the last Tq positions written). A decoder step
     * compiled once for the cache's capacity serves every sequence length with it.
     */
    record KeyMask(boolean causal) implements Op {
        public String opName() {
            return "key_mask";
        }
    }

    /**
     * One LSTM layer, PyTorch gate order (i, f, g, o). Inputs: x [B, T, I], w_ih [4H, I],
     * w_hh [4H, H], b_ih [4H], b_hh [4H], h0 [B, H], c0 [B, H]. Output [2, B, T, H]: the hidden
     * sequence, then the cell sequence (the final state is at t = T-1).
     */
    record Lstm(int hidden) implements Op {
        public String opName() {
            return "lstm";
        }
    }

    // ---- spectral ---------------------------------------------------------------------------------

    /**
     * torch.stft(return_complex) as real pairs: x [B, T], window [nFft] → [B, nFft/2+1, frames, 2].
     * With center, x is reflect-padded by nFft/2 on both sides.
     */
    record Stft(int nFft, int hop, boolean center) implements Op {
        public String opName() {
            return "stft";
        }
    }

    /** torch.istft: spectrum [B, nFft/2+1, frames, 2], window [nFft] → [B, length]. */
    record Istft(int nFft, int hop, boolean center, long length) implements Op {
        public String opName() {
            return "istft";
        }
    }

    /** |z| of complex pairs: [..., 2] → [...]. */
    record Magnitude() implements Op {
        public String opName() {
            return "magnitude";
        }
    }
}
