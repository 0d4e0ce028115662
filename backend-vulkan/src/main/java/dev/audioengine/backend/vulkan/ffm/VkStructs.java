package dev.audioengine.backend.vulkan.ffm;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.MemoryLayout.paddingLayout;
import static java.lang.foreign.MemoryLayout.sequenceLayout;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;

/**
 * The few vulkan_core.h structs and constants the probe uses, laid out as a C compiler does on
 * LP64 (padding spelled out). VkStructureType, VkBool32, flags and enums are 32-bit; VkDeviceSize
 * is 64-bit. Sizes are checked against the headers' in VkStructsTest.
 */
public final class VkStructs {
    private VkStructs() {}

    public static final int VK_STRUCTURE_TYPE_APPLICATION_INFO = 0;
    public static final int VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO = 1;
    public static final int VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2 = 1000059006;
    public static final int VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT = 1000237000;

    public static final int VK_MAX_PHYSICAL_DEVICE_NAME_SIZE = 256;
    public static final int VK_UUID_SIZE = 16;
    public static final int VK_MAX_MEMORY_TYPES = 32;
    public static final int VK_MAX_MEMORY_HEAPS = 16;
    public static final int VK_MAX_EXTENSION_NAME_SIZE = 256;
    public static final int VK_MEMORY_HEAP_DEVICE_LOCAL_BIT = 0x1;
    public static final String VK_EXT_MEMORY_BUDGET_EXTENSION_NAME = "VK_EXT_memory_budget";

    public static final StructLayout VK_APPLICATION_INFO = MemoryLayout.structLayout(
            JAVA_INT.withName("sType"),
            paddingLayout(4),
            ADDRESS.withName("pNext"),
            ADDRESS.withName("pApplicationName"),
            JAVA_INT.withName("applicationVersion"),
            paddingLayout(4),
            ADDRESS.withName("pEngineName"),
            JAVA_INT.withName("engineVersion"),
            JAVA_INT.withName("apiVersion"));

    public static final StructLayout VK_INSTANCE_CREATE_INFO = MemoryLayout.structLayout(
            JAVA_INT.withName("sType"),
            paddingLayout(4),
            ADDRESS.withName("pNext"),
            JAVA_INT.withName("flags"),
            paddingLayout(4),
            ADDRESS.withName("pApplicationInfo"),
            JAVA_INT.withName("enabledLayerCount"),
            paddingLayout(4),
            ADDRESS.withName("ppEnabledLayerNames"),
            JAVA_INT.withName("enabledExtensionCount"),
            paddingLayout(4),
            ADDRESS.withName("ppEnabledExtensionNames"));

    /** VkPhysicalDeviceLimits is 504 bytes of mixed fields, 8-aligned; the probe reads none of them. */
    public static final MemoryLayout VK_PHYSICAL_DEVICE_LIMITS_OPAQUE =
            sequenceLayout(504 / 8, JAVA_LONG).withName("limits");

    public static final StructLayout VK_PHYSICAL_DEVICE_PROPERTIES = MemoryLayout.structLayout(
            JAVA_INT.withName("apiVersion"),
            JAVA_INT.withName("driverVersion"),
            JAVA_INT.withName("vendorID"),
            JAVA_INT.withName("deviceID"),
            JAVA_INT.withName("deviceType"),
            sequenceLayout(VK_MAX_PHYSICAL_DEVICE_NAME_SIZE, JAVA_BYTE).withName("deviceName"),
            sequenceLayout(VK_UUID_SIZE, JAVA_BYTE).withName("pipelineCacheUUID"),
            paddingLayout(4),
            VK_PHYSICAL_DEVICE_LIMITS_OPAQUE,
            sequenceLayout(5, JAVA_INT).withName("sparseProperties"), // five VkBool32
            paddingLayout(4));

    public static final StructLayout VK_MEMORY_TYPE =
            MemoryLayout.structLayout(JAVA_INT.withName("propertyFlags"), JAVA_INT.withName("heapIndex"));

    public static final StructLayout VK_MEMORY_HEAP =
            MemoryLayout.structLayout(JAVA_LONG.withName("size"), JAVA_INT.withName("flags"), paddingLayout(4));

    public static final StructLayout VK_PHYSICAL_DEVICE_MEMORY_PROPERTIES = MemoryLayout.structLayout(
            JAVA_INT.withName("memoryTypeCount"),
            sequenceLayout(VK_MAX_MEMORY_TYPES, VK_MEMORY_TYPE).withName("memoryTypes"),
            JAVA_INT.withName("memoryHeapCount"),
            sequenceLayout(VK_MAX_MEMORY_HEAPS, VK_MEMORY_HEAP).withName("memoryHeaps"));

    public static final StructLayout VK_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2 = MemoryLayout.structLayout(
            JAVA_INT.withName("sType"),
            paddingLayout(4),
            ADDRESS.withName("pNext"),
            VK_PHYSICAL_DEVICE_MEMORY_PROPERTIES.withName("memoryProperties"));

    public static final StructLayout VK_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT = MemoryLayout.structLayout(
            JAVA_INT.withName("sType"),
            paddingLayout(4),
            ADDRESS.withName("pNext"),
            sequenceLayout(VK_MAX_MEMORY_HEAPS, JAVA_LONG).withName("heapBudget"),
            sequenceLayout(VK_MAX_MEMORY_HEAPS, JAVA_LONG).withName("heapUsage"));

    public static final StructLayout VK_EXTENSION_PROPERTIES = MemoryLayout.structLayout(
            sequenceLayout(VK_MAX_EXTENSION_NAME_SIZE, JAVA_BYTE).withName("extensionName"),
            JAVA_INT.withName("specVersion"));

    public static long offset(StructLayout struct, String field) {
        return struct.byteOffset(groupElement(field));
    }

    /** VK_MAKE_API_VERSION(0, major, minor, 0). */
    public static int apiVersion(int major, int minor) {
        return (major << 22) | (minor << 12);
    }

    /** "1.3.230" from a packed VK_API_VERSION (variant bits ignored). */
    public static String apiVersionName(int version) {
        return ((version >>> 22) & 0x7F) + "." + ((version >>> 12) & 0x3FF) + "." + (version & 0xFFF);
    }
}
