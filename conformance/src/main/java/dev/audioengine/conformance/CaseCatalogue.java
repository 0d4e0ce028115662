package dev.audioengine.conformance;

import dev.audioengine.api.tensor.DType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Every conformance case: each op of {@link dev.audioengine.api.graph.Op} over its dtypes and a
 * spread of shapes (size 1, odd sizes, sizes past tile boundaries such as 257 and 1025,
 * broadcasting, strided views as inputs). Shapes stay moderate so the whole CPU run against the
 * float64 reference stays short on a small machine (docs/CONFORMANCE.md gives its time and command).
 */
public final class CaseCatalogue {
    private static final List<ConformanceCase> ALL = build();

    /** The weight dtypes matmul and get_rows are tested with (other catalogues, such as the bench cases, cover the same). */
    public static final List<DType> WEIGHT_TYPES = LinearCases.WEIGHT_TYPES;

    /** The key/value dtypes attention is tested with. */
    public static final List<DType> KV_TYPES = SequenceCases.KV_TYPES;

    private CaseCatalogue() {}

    public static List<ConformanceCase> all() {
        return ALL;
    }

    /**
     * The cases matching an op name and a dtype name (case-insensitive; null matches anything).
     * Unknown names fail with the list of valid ones rather than selecting nothing.
     */
    public static List<ConformanceCase> select(String op, String dtype) {
        if (op != null && ALL.stream().noneMatch(c -> c.op().equalsIgnoreCase(op))) {
            throw new IllegalArgumentException("no conformance cases for op '" + op + "'; ops: " + opNames());
        }
        if (dtype != null && ALL.stream().noneMatch(c -> c.dtype().equalsIgnoreCase(dtype))) {
            throw new IllegalArgumentException("no conformance cases for dtype '" + dtype + "'; dtypes: "
                    + ALL.stream().map(ConformanceCase::dtype).distinct().toList());
        }
        List<ConformanceCase> out = ALL.stream()
                .filter(c -> op == null || c.op().equalsIgnoreCase(op))
                .filter(c -> dtype == null || c.dtype().equalsIgnoreCase(dtype))
                .toList();
        if (out.isEmpty())
            throw new IllegalArgumentException("no conformance case has op '" + op + "' with dtype '" + dtype + "'");
        return out;
    }

    /** Op names in catalogue order, each once. */
    public static List<String> opNames() {
        return ALL.stream().map(ConformanceCase::op).distinct().toList();
    }

    private static List<ConformanceCase> build() {
        List<ConformanceCase> out = new ArrayList<>();
        ElementwiseCases.addTo(out);
        LinearCases.addTo(out);
        LayoutCases.addTo(out);
        ReductionCases.addTo(out);
        SequenceCases.addTo(out);
        SpectralCases.addTo(out);
        Set<String> ids = new HashSet<>();
        for (ConformanceCase c : out) {
            if (!ids.add(c.id().toLowerCase(Locale.ROOT)))
                throw new IllegalStateException("two conformance cases are named " + c.id());
        }
        return List.copyOf(out);
    }
}
