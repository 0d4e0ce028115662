package dev.audioengine.backend.vulkan.ffm;

import static dev.audioengine.backend.vulkan.ffm.VkComputeStructs.*;
import static dev.audioengine.backend.vulkan.ffm.VkStructs.offset;
import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.backend.vulkan.device.ValidationMessages;
import java.lang.foreign.StructLayout;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Expected figures are sizeof/offsetof from vulkan_core.h 1.3.239 compiled with gcc on x86_64. */
class VkComputeStructsTest {

    @Test
    void sizesMatchTheHeader() {
        Map<StructLayout, Integer> sizes = Map.ofEntries(
                Map.entry(DEVICE_QUEUE_CREATE, 40),
                Map.entry(DEVICE_CREATE, 72),
                Map.entry(QUEUE_FAMILY_PROPERTIES, 24),
                Map.entry(BUFFER_CREATE, 56),
                Map.entry(MEMORY_REQUIREMENTS, 24),
                Map.entry(MEMORY_ALLOCATE, 32),
                Map.entry(SHADER_MODULE_CREATE, 40),
                Map.entry(DESCRIPTOR_SET_LAYOUT_BINDING, 24),
                Map.entry(DESCRIPTOR_SET_LAYOUT_CREATE, 32),
                Map.entry(PUSH_CONSTANT_RANGE, 12),
                Map.entry(PIPELINE_LAYOUT_CREATE, 48),
                Map.entry(SPECIALIZATION_MAP_ENTRY, 16),
                Map.entry(SPECIALIZATION_INFO, 32),
                Map.entry(PIPELINE_SHADER_STAGE_CREATE, 48),
                Map.entry(COMPUTE_PIPELINE_CREATE, 96),
                Map.entry(DESCRIPTOR_POOL_SIZE, 8),
                Map.entry(DESCRIPTOR_POOL_CREATE, 40),
                Map.entry(DESCRIPTOR_SET_ALLOCATE, 40),
                Map.entry(DESCRIPTOR_BUFFER_INFO, 24),
                Map.entry(WRITE_DESCRIPTOR, 64),
                Map.entry(COMMAND_POOL_CREATE, 24),
                Map.entry(COMMAND_BUFFER_ALLOCATE, 32),
                Map.entry(COMMAND_BUFFER_BEGIN, 32),
                Map.entry(MEMORY_BARRIER_STRUCT, 24),
                Map.entry(BUFFER_COPY, 24),
                Map.entry(SUBMIT, 72),
                Map.entry(FENCE_CREATE, 24),
                Map.entry(PHYSICAL_DEVICE_SUBGROUP, 32),
                Map.entry(PHYSICAL_DEVICE_PROPERTIES_2_STRUCT, 840),
                Map.entry(ValidationMessages.CREATE_INFO, 48));
        sizes.forEach((layout, size) ->
                assertThat((int) layout.byteSize()).as(layout.toString()).isEqualTo(size));
    }

    @Test
    void offsetsTheRecordingReliesOn() {
        assertThat(offset(COMPUTE_PIPELINE_CREATE, "layout")).isEqualTo(72);
        assertThat(offset(SUBMIT, "pCommandBuffers")).isEqualTo(48);
        assertThat(offset(WRITE_DESCRIPTOR, "pBufferInfo")).isEqualTo(48);
        assertThat(offset(PIPELINE_SHADER_STAGE_CREATE, "module")).isEqualTo(24);
        assertThat(offset(ValidationMessages.CREATE_INFO, "pfnUserCallback")).isEqualTo(32);
        // VkPhysicalDeviceLimits fields read by offset
        assertThat(LIMIT_MAX_STORAGE_BUFFER_RANGE).isEqualTo(28);
        assertThat(LIMIT_MAX_PUSH_CONSTANTS_SIZE).isEqualTo(32);
        assertThat(LIMIT_MAX_COMPUTE_SHARED_MEMORY_SIZE).isEqualTo(216);
        assertThat(LIMIT_MAX_COMPUTE_WORK_GROUP_COUNT).isEqualTo(220);
        assertThat(LIMIT_MAX_COMPUTE_WORK_GROUP_INVOCATIONS).isEqualTo(232);
        assertThat(LIMIT_MIN_STORAGE_BUFFER_OFFSET_ALIGNMENT).isEqualTo(328);
    }

    @Test
    void structureTypesMatchTheHeader() {
        assertThat(PHYSICAL_DEVICE_SUBGROUP_PROPERTIES).isEqualTo(1000094000);
        assertThat(PHYSICAL_DEVICE_PROPERTIES_2).isEqualTo(1000059001);
        assertThat(COMPUTE_PIPELINE_CREATE_INFO).isEqualTo(29);
        assertThat(WRITE_DESCRIPTOR_SET).isEqualTo(35);
        assertThat(COMMAND_BUFFER_BEGIN_INFO).isEqualTo(42);
        assertThat(MEMORY_BARRIER).isEqualTo(46);
    }
}
