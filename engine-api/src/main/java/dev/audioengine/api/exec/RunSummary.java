package dev.audioengine.api.exec;

import java.util.List;
import java.util.Map;

/**
 * What a compiled graph does where: nodes per backend, the nodes that fell back to the CPU,
 * the copies between backends that this costs, and the planned memory. {@code backendDetail} is
 * the primary backend's {@link dev.audioengine.api.spi.Backend#detail()} (its GEMM library,
 * graph capture), empty when it has nothing to add.
 */
public record RunSummary(
        String backend,
        String backendDetail,
        Map<String, Integer> nodesPerBackend,
        List<String> fallbackNodes,
        int copiesPerRun,
        long copyBytesPerRun,
        Map<String, Long> arenaBytes) {

    public String describe() {
        StringBuilder sb = new StringBuilder();
        sb.append("backend ").append(backend);
        if (!backendDetail.isEmpty()) sb.append(" (").append(backendDetail).append(")");
        sb.append(", nodes ").append(nodesPerBackend);
        if (!fallbackNodes.isEmpty()) {
            sb.append(", ")
                    .append(fallbackNodes.size())
                    .append(" on CPU fallback ")
                    .append(fallbackNodes)
                    .append(" costing ")
                    .append(copiesPerRun)
                    .append(" copies (")
                    .append(copyBytesPerRun)
                    .append(" bytes) per run");
        }
        sb.append(", activation memory ").append(arenaBytes);
        return sb.toString();
    }
}
