package dev.audioengine.api.exec;

import java.util.List;
import java.util.Map;

/**
 * What a compiled graph does where: nodes per backend, the nodes that fell back to the CPU,
 * the copies between backends that this costs, and the planned memory. {@code backendDetail} is
 * the primary backend's {@link dev.audioengine.api.spi.Backend#detail()} (its GEMM library,
 * graph capture), empty when it has nothing to add.
 *
 * @param backend the primary backend's registry name ("CUDA")
 * @param backendDetail the primary's detail line, or empty
 * @param nodesPerBackend compute nodes per backend registry name
 * @param fallbackNodes a description of each node that runs on the CPU fallback; empty when everything runs on the
 *     primary
 * @param copiesPerRun transfers between backends each run makes because of the fallbacks
 * @param copyBytesPerRun bytes those transfers move per run
 * @param arenaBytes activation memory planned per backend registry name, in bytes (weights and persistent tensors
 *     not included)
 */
public record RunSummary(
        String backend,
        String backendDetail,
        Map<String, Integer> nodesPerBackend,
        List<String> fallbackNodes,
        int copiesPerRun,
        long copyBytesPerRun,
        Map<String, Long> arenaBytes) {

    /**
     * One line for logs and {@code --verbose}: backend, nodes per backend, fallbacks and their cost, activation memory.
     *
     * @return e.g. {@code backend CUDA (GEMM: cuBLASLt ...), nodes {CUDA=412}, activation memory {CUDA=1048576}}
     */
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
