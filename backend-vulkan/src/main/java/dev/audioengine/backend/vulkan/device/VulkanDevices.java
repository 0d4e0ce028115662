package dev.audioengine.backend.vulkan.device;

import static dev.audioengine.backend.vulkan.ffm.VkStructs.offset;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.audioengine.api.spi.DeviceInfo;
import dev.audioengine.api.spi.DeviceKind;
import dev.audioengine.backend.vulkan.ffm.VkResults;
import dev.audioengine.backend.vulkan.ffm.VkStructs;
import dev.audioengine.backend.vulkan.ffm.VulkanFunctions;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Lists the physical devices of every installed Vulkan driver through a short-lived instance
 * (no layers, no extensions), destroyed before returning.
 */
public final class VulkanDevices {
    /** The newest API this code asks an instance for. */
    static final int REQUESTED_API = VkStructs.apiVersion(1, 3);

    /** One device, and whether its free memory came from VK_EXT_memory_budget (else it is the heap size). */
    public record VulkanDevice(DeviceInfo info, boolean budgetKnown) {}

    private VulkanDevices() {}

    /** Throws VulkanException when the instance cannot be made or devices cannot be listed. */
    public static List<VulkanDevice> list(VulkanFunctions vk) {
        try (Arena arena = Arena.ofConfined()) {
            int loaderVersion = vk.instanceVersion(arena);
            int api = Math.min(loaderVersion & ~0xFFF & 0x1FFFFFFF, REQUESTED_API);
            MemorySegment instance = vk.createInstance(arena, instanceCreateInfo(arena, api));
            try {
                Optional<MethodHandle> memoryProperties2 = vk.physicalDeviceMemoryProperties2(arena, instance);
                List<MemorySegment> handles = physicalDevices(vk, arena, instance);
                List<VulkanDevice> devices = new ArrayList<>(handles.size());
                for (int i = 0; i < handles.size(); i++) {
                    devices.add(describe(vk, arena, i, handles.get(i), memoryProperties2));
                }
                return devices;
            } finally {
                vk.destroyInstance(instance);
            }
        }
    }

    public static MemorySegment instanceCreateInfo(Arena arena, int apiVersion) {
        var app = VkStructs.VK_APPLICATION_INFO;
        MemorySegment appInfo = arena.allocate(app);
        appInfo.set(JAVA_INT, offset(app, "sType"), VkStructs.VK_STRUCTURE_TYPE_APPLICATION_INFO);
        appInfo.set(ADDRESS, offset(app, "pApplicationName"), arena.allocateFrom("audioengine"));
        appInfo.set(ADDRESS, offset(app, "pEngineName"), arena.allocateFrom("audioengine"));
        appInfo.set(JAVA_INT, offset(app, "apiVersion"), apiVersion);

        var create = VkStructs.VK_INSTANCE_CREATE_INFO;
        MemorySegment createInfo = arena.allocate(create); // zeroed: no pNext, flags, layers or extensions
        createInfo.set(JAVA_INT, offset(create, "sType"), VkStructs.VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
        createInfo.set(ADDRESS, offset(create, "pApplicationInfo"), appInfo);
        return createInfo;
    }

    static List<MemorySegment> physicalDevices(VulkanFunctions vk, Arena arena, MemorySegment instance) {
        MemorySegment count = arena.allocate(JAVA_INT);
        while (true) { // the count can grow between the two calls (a hot-plugged device): then VK_INCOMPLETE
            VulkanFunctions.check(
                    vk.enumeratePhysicalDevices(instance, count, MemorySegment.NULL), "vkEnumeratePhysicalDevices");
            int n = count.get(JAVA_INT, 0);
            MemorySegment array = arena.allocate(ADDRESS, Math.max(1, n));
            int result = vk.enumeratePhysicalDevices(instance, count, array);
            if (result == VkResults.VK_INCOMPLETE) continue;
            VulkanFunctions.check(result, "vkEnumeratePhysicalDevices");
            List<MemorySegment> handles = new ArrayList<>();
            for (int i = 0; i < count.get(JAVA_INT, 0); i++) handles.add(array.getAtIndex(ADDRESS, i));
            return handles;
        }
    }

    static VulkanDevice describe(
            VulkanFunctions vk,
            Arena arena,
            int index,
            MemorySegment device,
            Optional<MethodHandle> memoryProperties2) {
        var p = VkStructs.VK_PHYSICAL_DEVICE_PROPERTIES;
        MemorySegment props = arena.allocate(p);
        vk.physicalDeviceProperties(device, props);
        String name = props.getString(offset(p, "deviceName"));
        DeviceKind kind = kind(props.get(JAVA_INT, offset(p, "deviceType")));
        String arch = "Vulkan " + VkStructs.apiVersionName(props.get(JAVA_INT, offset(p, "apiVersion")));

        var m = VkStructs.VK_PHYSICAL_DEVICE_MEMORY_PROPERTIES;
        MemorySegment memory = arena.allocate(m);
        vk.physicalDeviceMemoryProperties(device, memory);
        long total = 0;
        int heaps = memory.get(JAVA_INT, offset(m, "memoryHeapCount"));
        boolean[] deviceLocal = new boolean[heaps];
        for (int h = 0; h < heaps; h++) {
            MemorySegment heap = heap(memory, offset(m, "memoryHeaps"), h);
            deviceLocal[h] = (heap.get(JAVA_INT, offset(VkStructs.VK_MEMORY_HEAP, "flags"))
                            & VkStructs.VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
                    != 0;
            if (deviceLocal[h]) total += heap.get(JAVA_LONG, offset(VkStructs.VK_MEMORY_HEAP, "size"));
        }

        Optional<Long> free = memoryProperties2.isPresent() && supportsMemoryBudget(vk, arena, device)
                ? Optional.of(budgetFree(arena, device, memoryProperties2.get(), deviceLocal))
                : Optional.empty();
        // Without VK_EXT_memory_budget Vulkan cannot say what is in use: report the heap size as free.
        return new VulkanDevice(new DeviceInfo(index, name, arch, kind, total, free.orElse(total)), free.isPresent());
    }

    private static MemorySegment heap(MemorySegment memory, long heapsOffset, int h) {
        long size = VkStructs.VK_MEMORY_HEAP.byteSize();
        return memory.asSlice(heapsOffset + h * size, size);
    }

    /** VkPhysicalDeviceType to the registry's ranking; OTHER (unknown hardware) ranks lowest, with CPU. */
    public static DeviceKind kind(int vkPhysicalDeviceType) {
        return switch (vkPhysicalDeviceType) {
            case 1 -> DeviceKind.INTEGRATED_GPU;
            case 2 -> DeviceKind.DISCRETE_GPU;
            case 3 -> DeviceKind.VIRTUAL_GPU;
            default -> DeviceKind.CPU; // 4 = VK_PHYSICAL_DEVICE_TYPE_CPU, 0 = OTHER
        };
    }

    private static boolean supportsMemoryBudget(VulkanFunctions vk, Arena arena, MemorySegment device) {
        MemorySegment count = arena.allocate(JAVA_INT);
        VulkanFunctions.check(
                vk.enumerateDeviceExtensionProperties(device, count, MemorySegment.NULL),
                "vkEnumerateDeviceExtensionProperties");
        int n = count.get(JAVA_INT, 0);
        var e = VkStructs.VK_EXTENSION_PROPERTIES;
        MemorySegment extensions = arena.allocate(e, Math.max(1, n));
        int result = vk.enumerateDeviceExtensionProperties(device, count, extensions);
        if (result != VkResults.VK_INCOMPLETE) VulkanFunctions.check(result, "vkEnumerateDeviceExtensionProperties");
        for (int i = 0; i < count.get(JAVA_INT, 0); i++) {
            String name = extensions.getString(i * e.byteSize() + offset(e, "extensionName"));
            if (name.equals(VkStructs.VK_EXT_MEMORY_BUDGET_EXTENSION_NAME)) return true;
        }
        return false;
    }

    /** Sum over device-local heaps of what this process may still allocate: budget minus its usage. */
    private static long budgetFree(
            Arena arena, MemorySegment device, MethodHandle memoryProperties2, boolean[] deviceLocal) {
        var b = VkStructs.VK_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT;
        MemorySegment budget = arena.allocate(b);
        budget.set(
                JAVA_INT, offset(b, "sType"), VkStructs.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT);
        var p2 = VkStructs.VK_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2;
        MemorySegment properties2 = arena.allocate(p2);
        properties2.set(JAVA_INT, offset(p2, "sType"), VkStructs.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2);
        properties2.set(ADDRESS, offset(p2, "pNext"), budget);
        try {
            memoryProperties2.invokeExact(device, properties2);
        } catch (Throwable t) {
            throw VulkanFunctions.rethrow(t);
        }
        long free = 0;
        for (int h = 0; h < deviceLocal.length; h++) {
            if (!deviceLocal[h]) continue;
            long heapBudget = budget.get(JAVA_LONG, offset(b, "heapBudget") + h * JAVA_LONG.byteSize());
            long heapUsage = budget.get(JAVA_LONG, offset(b, "heapUsage") + h * JAVA_LONG.byteSize());
            free += Math.max(0, heapBudget - heapUsage);
        }
        return free;
    }
}
