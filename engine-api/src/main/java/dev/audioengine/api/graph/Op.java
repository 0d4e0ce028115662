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

    /**
     * Short, stable name used by the support matrix, the conformance suite and run summaries.
     *
     * @return a lower-case snake_case name such as {@code "matmul"} or {@code "write_slice"}; a {@link Binary},
     *     {@link Unary} or {@link Reduce} op is named after its kind ({@code "add"}, {@code "gelu_erf"}, {@code
     *     "mean"})
     */
    String opName();

    /**
     * True for ops whose output aliases the storage of their first input (no kernel runs).
     *
     * @return true for {@link Slice}, {@link Permute} and {@link Reshape}; such a node costs no memory of its own
     */
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

        /**
         * Lower-case name, as used in file, package and kernel names ({@code reduction}, {@code kernels/reduction.cu}).
         *
         * @return the constant's name in lower case, e.g. {@code "elementwise"}
         */
        public String id() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * This op's family; exhaustive over the sealed hierarchy, so a new op does not compile until it has one.
     *
     * @return the family whose files and kernels hold this op's code
     */
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

    /**
     * A value supplied at run time.
     *
     * @param name the key under which the caller passes the value to {@code CompiledGraph.run}; unique in its graph
     */
    record Input(String name) implements Op {
        public String opName() {
            return "input";
        }
    }

    /**
     * A weight or constant; uploaded once per backend and shared by every graph using it.
     *
     * @param value the data; the graph references it but does not own it, so the model that made it closes it, after
     *     the last graph that uses it is closed. Its identity (not its contents) is the upload cache's key
     */
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
     *
     * @param name the name of the persistent tensor it binds to; unique among the graph's states
     */
    record State(String name) implements Op {
        public String opName() {
            return "state";
        }
    }

    // ---- elementwise -----------------------------------------------------------------------

    /** The arithmetic of a {@link Binary} op, a (op) b in IEEE float arithmetic (no checks: x / 0 is ±inf or NaN). */
    enum BinaryKind {
        /** a + b. */
        ADD,
        /** a - b. */
        SUB,
        /** a · b. */
        MUL,
        /** a / b. */
        DIV,
        /** a raised to the power b, as {@link Math#pow}: a negative base with a fractional exponent gives NaN. */
        POW,
        /**
         * The larger of a and b, as {@link Math#max}: NaN if either is NaN (ONNX {@code Max}, {@code torch.maximum});
         * with a one-element b, a clamp from below.
         */
        MAX
    }

    /**
     * Elementwise a (op) b with NumPy broadcasting.
     *
     * @param kind which arithmetic; {@link #opName()} is its name in lower case
     */
    record Binary(BinaryKind kind) implements Op {
        public String opName() {
            return kind.name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** The function of a {@link Unary} op; NaN in gives NaN out for every kind. */
    enum UnaryKind {
        /** max(0, x). */
        RELU,
        /** The exact GELU, x · Φ(x) = 0.5x(1 + erf(x/√2)) (PyTorch's default {@code gelu}). */
        GELU_ERF,
        /** GELU's tanh approximation, 0.5x(1 + tanh(√(2/π)(x + 0.044715x³))) ({@code approximate="tanh"}). */
        GELU_TANH,
        /** x · σ(x), also called swish. */
        SILU,
        /** tanh(x). */
        TANH,
        /** σ(x) = 1 / (1 + e^-x). */
        SIGMOID,
        /** x for x &gt; 0, else alpha · (e^x - 1); reads {@link Unary#alpha()} (as does {@link #LEAKY_RELU}). */
        ELU,
        /** e^x. */
        EXP,
        /** The natural logarithm; -inf at 0, NaN below 0 (clamp first where inputs can be 0, as log-mel does). */
        LOG,
        /** √x; NaN below 0. */
        SQRT,
        /** -x. */
        NEG,
        /** |x|. */
        ABS,
        /** x². */
        SQR,
        /** sin(x), x in radians. */
        SIN,
        /** cos(x), x in radians. */
        COS,
        /**
         * x for x &gt; 0, else alpha · x (ONNX {@code LeakyRelu}, PyTorch's {@code leaky_relu} with
         * {@code negative_slope} alpha); reads {@link Unary#alpha()} as the slope.
         */
        LEAKY_RELU
    }

    /**
     * Elementwise f(x); {@code alpha} is ELU's alpha or LEAKY_RELU's slope and ignored by the others.
     *
     * @param kind which function; {@link #opName()} is its name in lower case
     * @param alpha ELU's alpha (1 is PyTorch's default) or LEAKY_RELU's negative slope; ignored by every other kind
     */
    record Unary(UnaryKind kind, float alpha) implements Op {
        public String opName() {
            return kind.name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * y = x * scale + bias.
     *
     * @param scale the factor every element is multiplied by
     * @param bias the constant added after scaling; 0 for a plain scale
     */
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
     * F16, BF16 or a block type (Q8_0, Q4_0, Q5_0, Q5_1, Q4_1, Q6_K, Q4_K, Q5_K, Q3_K, Q2_K).
     */
    record MatMul() implements Op {
        public String opName() {
            return "matmul";
        }
    }

    /**
     * x [B, Cin, T], w [Cout, Cin/groups, K], optional bias [Cout] → [B, Cout, Tout].
     * Tout = (T + 2·padding - dilation·(K - 1) - 1) / stride + 1, as in PyTorch's Conv1d.
     *
     * @param stride the step between output frames in input frames, {@code >= 1}
     * @param padding zeros added at each end of the time axis, {@code >= 0}
     * @param dilation the spacing between kernel taps, {@code >= 1}
     * @param groups channel groups, {@code >= 1}, dividing Cin and Cout; groups = Cin = Cout is a depthwise
     *     convolution
     */
    record Conv1d(int stride, int padding, int dilation, int groups) implements Op {
        public String opName() {
            return "conv1d";
        }
    }

    /**
     * x [B, Cin, T], w [Cin, Cout/groups, K], optional bias [Cout] → [B, Cout, Tout] (PyTorch's ConvTranspose1d).
     * Tout = (T - 1)·stride - 2·padding + dilation·(K - 1) + outputPadding + 1.
     *
     * @param stride the upsampling factor, {@code >= 1}
     * @param padding frames removed from each end of the full output, {@code >= 0}
     * @param outputPadding frames added at the end only, to pick one of the output lengths a strided convolution maps
     *     to the same input length; {@code >= 0} and smaller than stride or dilation
     * @param dilation the spacing between kernel taps, {@code >= 1}
     * @param groups channel groups, {@code >= 1}, dividing Cin
     */
    record ConvTranspose1d(int stride, int padding, int outputPadding, int dilation, int groups) implements Op {
        public String opName() {
            return "conv_transpose1d";
        }
    }

    // ---- layout --------------------------------------------------------------------------------

    /** What a {@link Pad} op puts in the added elements. */
    enum PadMode {
        /** A constant, {@link Pad#value()} (despite the name, not necessarily 0). */
        ZERO,
        /** Mirrored about the edge without repeating it (PyTorch's reflect): padding must be shorter than the axis. */
        REFLECT,
        /** The edge element repeated; the axis must not be empty. */
        REPLICATE
    }

    /**
     * Pads each axis by before[i] and after[i] elements; ZERO fills with {@code value}.
     *
     * @param mode how the added elements are filled
     * @param before elements added before the start of each axis, one entry per axis, each {@code >= 0}; copied
     * @param after elements added after the end of each axis, one entry per axis, each {@code >= 0}; copied (the
     *     accessors return the record's own arrays: do not change them)
     * @param value the fill of {@link PadMode#ZERO}; ignored by the other modes
     */
    record Pad(PadMode mode, long[] before, long[] after, float value) implements Op {
        /**
         * Copies the arrays, so the op cannot change after it is added to a graph.
         *
         * @param mode how the added elements are filled
         * @param before elements added before each axis; copied
         * @param after elements added after each axis; copied
         * @param value the fill of {@link PadMode#ZERO}
         */
        public Pad {
            before = before.clone();
            after = after.clone();
        }

        public String opName() {
            return "pad";
        }
    }

    /**
     * Joins F32 tensors along one axis; every other axis must agree.
     *
     * @param axis the joined axis, already normalized to {@code [0, rank)}
     */
    record Concat(int axis) implements Op {
        public String opName() {
            return "concat";
        }
    }

    /**
     * View of elements start, start+step, ... {@literal <} end along one axis.
     *
     * @param axis the sliced axis, normalized to {@code [0, rank)}
     * @param start the first element taken, {@code >= 0}
     * @param end one past the last element that may be taken, {@code start <= end <= size}
     * @param step the distance between taken elements, {@code >= 1}
     */
    record Slice(int axis, long start, long end, long step) implements Op {
        public String opName() {
            return "slice";
        }

        public boolean isView() {
            return true;
        }
    }

    /**
     * View with axes reordered: output axis i is input axis perm[i]. Transpose is a permute.
     *
     * @param perm a permutation of {@code 0 .. rank-1}; copied in (the accessor returns the record's own array: do
     *     not change it)
     */
    record Permute(int[] perm) implements Op {
        /**
         * Copies the permutation, so the op cannot change after it is added to a graph.
         *
         * @param perm a permutation of {@code 0 .. rank-1}
         */
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

    /**
     * View with a new shape of the same element count; the input must be contiguous.
     *
     * @param shape the output shape, every dimension known (the builder has already resolved a -1)
     */
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
     *
     * @param axis the axis the start indexes, normalized to {@code [0, rank)}; 0 for a whole overwrite
     */
    record WriteSlice(int axis) implements Op {
        public String opName() {
            return "write_slice";
        }
    }

    /**
     * Converts between F32 and F16, BF16, the block types, I32 (round to nearest; I32 halves round up, NaN to 0,
     * saturating, like Math.round).
     *
     * @param to the output dtype; one of input and output is F32, and neither is I8
     */
    record Cast(DType to) implements Op {
        public String opName() {
            return "cast";
        }
    }

    // ---- reduction: norms, softmax and reductions along an axis ---------------------------------

    /**
     * Over the last axis; optional gamma and beta [N].
     * y = (x - mean) / sqrt(var + eps) · gamma + beta, with the biased variance (PyTorch's LayerNorm).
     *
     * @param eps added to the variance before the square root, e.g. 1e-5; keeps a constant row finite
     */
    record LayerNorm(float eps) implements Op {
        public String opName() {
            return "layer_norm";
        }
    }

    /**
     * x / sqrt(mean(x²) + eps) over the last axis; optional gamma [N].
     *
     * @param eps added to the mean square before the square root, e.g. 1e-6; keeps an all-zero row finite
     */
    record RmsNorm(float eps) implements Op {
        public String opName() {
            return "rms_norm";
        }
    }

    /**
     * x [B, C, ...] normalized per (batch, group of C/groups channels); optional gamma and beta [C].
     *
     * @param groups the number of channel groups, {@code >= 1}, dividing C; 1 normalizes each batch element as a
     *     whole, C normalizes each channel (instance norm)
     * @param eps added to the variance before the square root
     */
    record GroupNorm(int groups, float eps) implements Op {
        public String opName() {
            return "group_norm";
        }
    }

    /**
     * softmax(x·scale + mask) over the last axis; optional additive mask broadcast to x (may hold -inf).
     * A row that is -inf everywhere gives zeros.
     *
     * @param scale multiplies x before the mask is added (attention's 1/√D); 1 for a plain softmax
     */
    record Softmax(float scale) implements Op {
        public String opName() {
            return "softmax";
        }
    }

    /** What a {@link Reduce} op computes along its axis. */
    enum ReduceKind {
        /** The sum; 0 over an empty axis. */
        SUM,
        /** The arithmetic mean; NaN over an empty axis. */
        MEAN,
        /** The largest value, NaN if any value is NaN (as torch.max); an empty axis is rejected. */
        MAX
    }

    /**
     * Reduces an F32 tensor along one axis.
     *
     * @param kind what is computed; {@link #opName()} is its name in lower case
     * @param axis the reduced axis, normalized to {@code [0, rank)}
     * @param keepDim true to keep the axis with size 1 (so the result broadcasts against the input), false to drop it
     */
    record Reduce(ReduceKind kind, int axis, boolean keepDim) implements Op {
        public String opName() {
            return kind.name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * Index of the largest value along an axis (first one on ties; NaN counts as largest), as I32, axis removed.
     *
     * @param axis the searched axis, normalized to {@code [0, rank)}; it must not be empty
     */
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

    /** Which elements of the head dimension {@link Rope} rotates together. */
    enum RopeMode {
        /** Adjacent pairs (2i, 2i+1): ggml's default mode and the original RoFormer layout. */
        NORMAL,
        /** Halves (i, i + dims/2): the GPT-NeoX layout, what Hugging Face's {@code rotate_half} computes. */
        NEOX
    }

    /**
     * Rotary position embedding on x [B, H, T, D] with positions I32 [T]. The first {@code dims}
     * values of D rotate: NORMAL pairs (2i, 2i+1), NEOX pairs (i, i + dims/2); θ = pos·base^(-2i/dims).
     *
     * @param dims how many leading values of each head rotate: even, {@code 2 <= dims <= D}; the rest pass through
     *     (partial rotary)
     * @param base the frequency base, usually 10000
     * @param mode which values pair up
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
     *
     * @param scale multiplies q·kᵀ, usually 1/√D
     * @param causal true to hide every key after the query's own position (on top of any mask)
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
     *
     * @param causal true when the queries are new positions that must not see each other's future (a prefill of
     *     several tokens); a one-token step needs false
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
     *
     * @param hidden H, the size of the hidden and cell state
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
     * Onesided and unnormalized; frames = 1 + (padded T - nFft) / hop.
     *
     * @param nFft the frame and DFT length in samples, {@code >= 2}; also the window's length
     * @param hop samples between the starts of consecutive frames, {@code >= 1}
     * @param center true to reflect-pad so that frame m is centered on sample m·hop (torch's default)
     */
    record Stft(int nFft, int hop, boolean center) implements Op {
        public String opName() {
            return "stft";
        }
    }

    /**
     * torch.istft: spectrum [B, nFft/2+1, frames, 2], window [nFft] → [B, length].
     * Overlap-add divided by the overlap-added squared window; a window and hop whose envelope vanishes somewhere in
     * the output (failing NOLA) is an error.
     *
     * @param nFft the frame length in samples; the spectrum has nFft/2+1 bins
     * @param hop samples between consecutive frames, as in the forward transform
     * @param center true if the forward transform was centered: the first nFft/2 samples are dropped
     * @param length the output length in samples, 1 up to what the frames cover
     */
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
