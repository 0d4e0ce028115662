package dev.audioengine.api.capability;

import static dev.audioengine.api.capability.Capability.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CapabilityOverridesTest {
    @Test
    void effectiveIsVerifiedIntersectUsesWithSwitches() {
        Set<Capability> verified = EnumSet.of(FUSED_ATTENTION, BF16_WEIGHTS, CONV_TRANSPOSE1D_COL2IM);
        Set<Capability> uses = EnumSet.of(FUSED_ATTENTION, CONV_TRANSPOSE1D_COL2IM, DEPTHWISE_CONV1D_FAST);
        assertThat(CapabilityOverrides.NONE.effective(verified, uses))
                .containsExactlyInAnyOrder(FUSED_ATTENTION, CONV_TRANSPOSE1D_COL2IM);
        CapabilityOverrides o =
                CapabilityOverrides.parse(List.of("-fused_attention", "+DEPTHWISE_CONV1D_FAST,+GRAPH_CAPTURE"));
        // forced on only matters where the model can use it; forced off always wins
        assertThat(o.effective(verified, uses))
                .containsExactlyInAnyOrder(CONV_TRANSPOSE1D_COL2IM, DEPTHWISE_CONV1D_FAST);
    }

    @Test
    void badSwitchesAreClearErrors() {
        assertThatThrownBy(() -> CapabilityOverrides.parse(List.of("+NOPE")))
                .hasMessageContaining("NOPE")
                .hasMessageContaining("FUSED_ATTENTION");
        assertThatThrownBy(() -> CapabilityOverrides.parse(List.of("+BF16_WEIGHTS", "-BF16_WEIGHTS")))
                .hasMessageContaining("both");
    }
}
