package dev.audioengine.backend.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.conformance.CapabilityEvidence;
import dev.audioengine.conformance.ConformanceCase;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Without a GPU: every evidence case of every capability CUDA declares is one the op layer accepts (supportsOp as
 * GpuBackend answers it, with an H100's 227 KiB of shared memory per block), so `audioengine check --backend cuda`
 * runs each of them on the device rather than reporting it UNSUPPORTED, which would leave the declaration unbacked.
 * Whether they pass is the device run's question (CudaOnDeviceTest, CapabilityEvidenceTest on a GPU machine). The op
 * layer (gpu-common's ops package) is exported to no module, so it is reached by reflection: tests run on the class
 * path.
 */
class CudaEvidenceSupportedTest {
    @Test
    void everyEvidenceCaseOfADeclaredCapabilityIsSupported() throws ReflectiveOperationException {
        Class<?> limits = Class.forName("dev.audioengine.gpu.ops.DeviceLimits");
        Object h100 = limits.getConstructor(int.class).newInstance(227 * 1024);
        Method supports = Class.forName("dev.audioengine.gpu.ops.GpuOps").getMethod("supports", Tensor.class, limits);
        List<String> unsupported = new ArrayList<>();
        int cases = 0;
        for (Capability c : CudaBackendProvider.VERIFIED) {
            for (ConformanceCase k : CapabilityEvidence.cases(c)) {
                cases++;
                for (Tensor n : k.graph().computeNodes())
                    if (!(boolean) supports.invoke(null, n, h100)) unsupported.add(c + " " + k.id() + ": " + n);
            }
        }
        assertThat(cases).as("evidence cases").isGreaterThan(300);
        assertThat(unsupported).isEmpty();
    }

    @Test
    void theBlockTypesCapabilitiesAreDeclared() {
        assertThat(CudaBackendProvider.VERIFIED)
                .contains(
                        Capability.Q5_0_WEIGHTS,
                        Capability.Q5_1_WEIGHTS,
                        Capability.Q4_1_WEIGHTS,
                        Capability.Q6_K_WEIGHTS,
                        Capability.Q4_K_WEIGHTS,
                        Capability.Q5_K_WEIGHTS,
                        Capability.Q3_K_WEIGHTS,
                        Capability.Q2_K_WEIGHTS);
    }
}
