package dev.audioengine.backend.vulkan.ffm;

import static dev.audioengine.backend.vulkan.ffm.VkStructs.offset;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.backend.vulkan.device.VulkanDevices;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/** Expected figures are sizeof/offsetof from vulkan_core.h 1.3.239 compiled with gcc on x86_64. */
class VkStructsTest {

    @Test
    void applicationAndInstanceCreateInfo() {
        assertThat(VkStructs.VK_APPLICATION_INFO.byteSize()).isEqualTo(48);
        assertThat(offset(VkStructs.VK_APPLICATION_INFO, "pApplicationName")).isEqualTo(16);
        assertThat(offset(VkStructs.VK_APPLICATION_INFO, "pEngineName")).isEqualTo(32);
        assertThat(offset(VkStructs.VK_APPLICATION_INFO, "apiVersion")).isEqualTo(44);

        assertThat(VkStructs.VK_INSTANCE_CREATE_INFO.byteSize()).isEqualTo(64);
        assertThat(offset(VkStructs.VK_INSTANCE_CREATE_INFO, "pApplicationInfo"))
                .isEqualTo(24);
        assertThat(offset(VkStructs.VK_INSTANCE_CREATE_INFO, "ppEnabledExtensionNames"))
                .isEqualTo(56);
    }

    @Test
    void physicalDeviceProperties() {
        var p = VkStructs.VK_PHYSICAL_DEVICE_PROPERTIES;
        assertThat(p.byteSize()).isEqualTo(824);
        assertThat(offset(p, "deviceType")).isEqualTo(16);
        assertThat(offset(p, "deviceName")).isEqualTo(20);
        assertThat(offset(p, "limits")).isEqualTo(296);
        assertThat(VkStructs.VK_PHYSICAL_DEVICE_LIMITS_OPAQUE.byteSize()).isEqualTo(504);
        assertThat(offset(p, "sparseProperties")).isEqualTo(800);
    }

    @Test
    void memoryPropertiesAndBudget() {
        assertThat(VkStructs.VK_MEMORY_TYPE.byteSize()).isEqualTo(8);
        assertThat(VkStructs.VK_MEMORY_HEAP.byteSize()).isEqualTo(16);
        var m = VkStructs.VK_PHYSICAL_DEVICE_MEMORY_PROPERTIES;
        assertThat(m.byteSize()).isEqualTo(520);
        assertThat(offset(m, "memoryHeapCount")).isEqualTo(260);
        assertThat(offset(m, "memoryHeaps")).isEqualTo(264);

        assertThat(VkStructs.VK_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2.byteSize()).isEqualTo(536);
        assertThat(offset(VkStructs.VK_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2, "memoryProperties"))
                .isEqualTo(16);
        assertThat(VkStructs.VK_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT.byteSize())
                .isEqualTo(272);
        assertThat(offset(VkStructs.VK_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT, "heapUsage"))
                .isEqualTo(144);

        assertThat(VkStructs.VK_EXTENSION_PROPERTIES.byteSize()).isEqualTo(260);
        assertThat(offset(VkStructs.VK_EXTENSION_PROPERTIES, "specVersion")).isEqualTo(256);
    }

    @Test
    void structureTypesAndVersionsMatchTheHeader() {
        assertThat(VkStructs.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2)
                .isEqualTo(1000059006);
        assertThat(VkStructs.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT)
                .isEqualTo(1000237000);
        assertThat(VkStructs.apiVersion(1, 3)).isEqualTo(4206592); // VK_API_VERSION_1_3
        assertThat(VkStructs.apiVersionName(4206592 + 239)).isEqualTo("1.3.239");
        assertThat(VkStructs.apiVersionName(VkStructs.apiVersion(1, 2))).isEqualTo("1.2.0");
    }

    @Test
    void instanceCreateInfoPointsAtItsApplicationInfo() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment create = VulkanDevices.instanceCreateInfo(arena, VkStructs.apiVersion(1, 2));
            assertThat(create.get(JAVA_INT, 0)).isEqualTo(VkStructs.VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
            MemorySegment app = create.get(ADDRESS, 24).reinterpret(VkStructs.VK_APPLICATION_INFO.byteSize());
            assertThat(app.get(JAVA_INT, 0)).isEqualTo(VkStructs.VK_STRUCTURE_TYPE_APPLICATION_INFO);
            assertThat(app.get(JAVA_INT, 44)).isEqualTo(VkStructs.apiVersion(1, 2));
            assertThat(app.get(ADDRESS, 16).reinterpret(64).getString(0)).isEqualTo("audioengine");
            assertThat(create.get(JAVA_INT, 32)).as("enabledLayerCount").isZero();
            assertThat(create.get(JAVA_INT, 48)).as("enabledExtensionCount").isZero();
        }
    }
}
