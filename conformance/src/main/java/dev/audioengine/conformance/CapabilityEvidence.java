package dev.audioengine.conformance;

import dev.audioengine.api.capability.Capability;
import dev.audioengine.conformance.CaseResult.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Which conformance cases prove each capability. A backend may declare a capability only when
 * every one of its cases passes on that backend; a capability with no cases (yet) cannot be
 * declared by anyone. This is how HIP opts in one capability at a time: add it to the verified
 * set and show {@code audioengine check --backend hip} passing its cases.
 */
public final class CapabilityEvidence {
    private CapabilityEvidence() {}

    /** The predicate selecting a capability's evidence among the catalogue's cases. */
    public static Predicate<ConformanceCase> predicate(Capability c) {
        return switch (c) {
            // the depthwise shape (groups == in channels == out channels) is what the fast kernel serves
            case DEPTHWISE_CONV1D_FAST -> LinearCases::isDepthwise;
            case CONV_TRANSPOSE1D_COL2IM -> k -> k.op().equals("conv_transpose1d");
            // the fused op against the float64/CPU fused result and against the composite matmul-softmax-matmul path
            case FUSED_ATTENTION -> k -> k.op().equals("attention");
            case BF16_WEIGHTS -> k -> k.op().equals("matmul") && k.dtype().equals("bf16");
            // F32 weights, and Q8_0/Q4_0 weights whose wide products a GPU sends through its GEMM library on a decoded
            // copy
            case FAST_PROJECTION ->
                k -> k.op().equals("matmul")
                        && (k.dtype().equals("f32")
                                || k.dtype().equals("q8_0")
                                || k.dtype().equals("q4_0"));
            case DEVICE_ISTFT -> k -> k.op().equals("istft");
            // every matmul, get_rows and cast case of the type: the ops a model's weights of that type meet
            case Q5_0_WEIGHTS -> k -> k.dtype().equals("q5_0");
            case Q5_1_WEIGHTS -> k -> k.dtype().equals("q5_1");
            case Q4_1_WEIGHTS -> k -> k.dtype().equals("q4_1");
            case Q6_K_WEIGHTS -> k -> k.dtype().equals("q6_k");
            case Q4_K_WEIGHTS -> k -> k.dtype().equals("q4_k");
            case Q5_K_WEIGHTS -> k -> k.dtype().equals("q5_k");
            case Q3_K_WEIGHTS -> k -> k.dtype().equals("q3_k");
            case Q2_K_WEIGHTS -> k -> k.dtype().equals("q2_k");
            // no conformance cases exist yet, so no backend may declare these
            case TORCH_COMPATIBLE_RANDOM, GRAPH_CAPTURE -> k -> false;
        };
    }

    /** The catalogue's cases that are {@code c}'s evidence (empty for a capability nobody can declare yet). */
    public static List<ConformanceCase> cases(Capability c) {
        return CaseCatalogue.all().stream().filter(predicate(c)).toList();
    }

    /**
     * Why each declared capability is not backed by {@code report}: it has no evidence cases, some
     * were not run, or some failed or were unsupported. Empty when every declaration is earned.
     */
    public static List<String> unbacked(Set<Capability> declared, ConformanceReport report) {
        List<String> problems = new ArrayList<>();
        for (Capability c : declared) {
            List<ConformanceCase> evidence = cases(c);
            if (evidence.isEmpty()) {
                problems.add(report.backend() + " declares " + c
                        + ", which has no conformance cases yet: remove it from the verified set");
                continue;
            }
            for (ConformanceCase k : evidence) {
                CaseResult r = report.results().stream()
                        .filter(x -> x.testCase() == k)
                        .findFirst()
                        .orElse(null);
                if (r == null) {
                    problems.add(report.backend() + " declares " + c + " but case '" + k.id() + "' was not run");
                } else if (r.status() != Status.PASS) {
                    problems.add(report.backend() + " declares " + c + " but case '" + k.id() + "' is "
                            + ReportFormat.status(r.status()) + (r.message() == null ? "" : ": " + r.message()));
                }
            }
        }
        return problems;
    }
}
