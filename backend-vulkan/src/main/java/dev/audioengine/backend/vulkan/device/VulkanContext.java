package dev.audioengine.backend.vulkan.device;

import static dev.audioengine.backend.vulkan.ffm.VkComputeStructs.*;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.audioengine.api.spi.BackendUnavailableException;
import dev.audioengine.api.spi.DeviceInfo;
import dev.audioengine.api.spi.NativeLibrary;
import dev.audioengine.backend.vulkan.ffm.VkApi;
import dev.audioengine.backend.vulkan.ffm.VkResults;
import dev.audioengine.backend.vulkan.ffm.VkStruct;
import dev.audioengine.backend.vulkan.ffm.VkStructs;
import dev.audioengine.backend.vulkan.ffm.VulkanException;
import dev.audioengine.backend.vulkan.ffm.VulkanFunctions;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.List;
import java.util.Optional;

/**
 * One opened device: the instance (with the Khronos validation layer when asked), the chosen
 * physical device, a logical device with one compute queue, the memory types buffers use and
 * the limits dispatches must respect. {@link #close()} waits for the device and destroys both.
 */
public final class VulkanContext implements AutoCloseable {
    static final String VALIDATION_LAYER = "VK_LAYER_KHRONOS_validation";

    /** What dispatch planning must respect. */
    public record Limits(
            long maxStorageBufferRange,
            int maxPushConstantsSize,
            int maxSharedMemory,
            int[] maxGroupCount,
            int maxInvocations,
            long storageOffsetAlignment,
            int subgroupSize,
            boolean subgroupArithmetic) {}

    public final VkApi api;
    private final VulkanFunctions vk;
    final MemorySegment instance;
    final MemorySegment physicalDevice;
    public final MemorySegment device;
    public final MemorySegment queue;
    public final int queueFamily;
    public final DeviceInfo info;
    public final Limits limits;
    /** The validation layer's warnings and errors, or null when the layer is off. */
    public final ValidationMessages validation;
    /** Memory type of tensors; when it is also host-visible and coherent they are mapped directly. */
    public final int deviceMemoryType;

    public final boolean deviceMemoryMapped;
    /** Host-visible, coherent memory type for staging copies. */
    public final int stagingMemoryType;

    private boolean closed;

    private VulkanContext(
            VulkanFunctions vk,
            VkApi api,
            MemorySegment instance,
            MemorySegment physicalDevice,
            MemorySegment device,
            MemorySegment queue,
            int queueFamily,
            DeviceInfo info,
            Limits limits,
            ValidationMessages validation,
            int deviceMemoryType,
            boolean deviceMemoryMapped,
            int stagingMemoryType) {
        this.vk = vk;
        this.api = api;
        this.instance = instance;
        this.physicalDevice = physicalDevice;
        this.device = device;
        this.queue = queue;
        this.queueFamily = queueFamily;
        this.info = info;
        this.limits = limits;
        this.validation = validation;
        this.deviceMemoryType = deviceMemoryType;
        this.deviceMemoryMapped = deviceMemoryMapped;
        this.stagingMemoryType = stagingMemoryType;
    }

    /**
     * Opens device {@code index} (the probe's order). {@code validation}: "on" requires the layer,
     * "auto" uses it when installed, "off" never. {@code forceStaging} keeps tensors out of host
     * memory even on devices whose device-local memory is host-visible (tests the discrete-GPU path);
     * {@code subgroups} false ignores the device's subgroup arithmetic.
     */
    public static VulkanContext open(
            NativeLibrary library, int index, String validation, boolean forceStaging, boolean subgroups) {
        VulkanFunctions vk = new VulkanFunctions(library.symbols(), library.location());
        VkApi api = new VkApi(library.symbols(), library.location());
        MemorySegment instance = null;
        ValidationMessages messages = null;
        boolean layered = false;
        try (Arena arena = Arena.ofConfined()) {
            int loader = vk.instanceVersion(arena);
            int apiVersion = Math.min(loader & ~0xFFF & 0x1FFFFFFF, VulkanDevices.REQUESTED_API);
            if (apiVersion < VkStructs.apiVersion(1, 1)) {
                throw new BackendUnavailableException("the Vulkan loader at " + library.location() + " is "
                        + VkStructs.apiVersionName(loader) + "; the compute backend needs 1.1 or newer");
            }
            MemorySegment createInfo = VulkanDevices.instanceCreateInfo(arena, apiVersion);
            if (!validation.equals("off")) {
                var ici = VkStructs.VK_INSTANCE_CREATE_INFO;
                createInfo.set(JAVA_INT, VkStructs.offset(ici, "enabledLayerCount"), 1);
                createInfo.set(
                        ADDRESS,
                        VkStructs.offset(ici, "ppEnabledLayerNames"),
                        arena.allocateFrom(ADDRESS, arena.allocateFrom(VALIDATION_LAYER)));
                createInfo.set(JAVA_INT, VkStructs.offset(ici, "enabledExtensionCount"), 1);
                createInfo.set(
                        ADDRESS,
                        VkStructs.offset(ici, "ppEnabledExtensionNames"),
                        arena.allocateFrom(ADDRESS, arena.allocateFrom(ValidationMessages.EXTENSION)));
                try {
                    instance = vk.createInstance(arena, createInfo);
                    layered = true;
                } catch (VulkanException e) {
                    if (e.result() != -6 || validation.equals("on")) { // VK_ERROR_LAYER_NOT_PRESENT
                        throw new BackendUnavailableException(
                                "vkCreateInstance with " + VALIDATION_LAYER + " failed: " + VkResults.name(e.result())
                                        + (e.result() == -6
                                                ? "; install vulkan-validationlayers or set vulkan.validation=off"
                                                : ""));
                    }
                    createInfo.set(
                            JAVA_INT, VkStructs.offset(VkStructs.VK_INSTANCE_CREATE_INFO, "enabledLayerCount"), 0);
                    createInfo.set(
                            JAVA_INT, VkStructs.offset(VkStructs.VK_INSTANCE_CREATE_INFO, "enabledExtensionCount"), 0);
                }
            }
            if (instance == null) instance = vk.createInstance(arena, createInfo);
            if (layered) messages = ValidationMessages.install(vk.getInstanceProcAddr(), instance);

            Optional<MethodHandle> memoryProperties2 = vk.physicalDeviceMemoryProperties2(arena, instance);
            List<MemorySegment> devices = VulkanDevices.physicalDevices(vk, arena, instance);
            if (index < 0 || index >= devices.size()) {
                throw new BackendUnavailableException(
                        "Vulkan device " + index + " does not exist: " + devices.size() + " device(s)");
            }
            MemorySegment physical = devices.get(index);
            DeviceInfo info = VulkanDevices.describe(vk, arena, index, physical, memoryProperties2)
                    .info();
            int family = computeQueueFamily(api, arena, physical, info);
            Limits limits = limits(api, arena, physical, subgroups);

            VkStruct queueInfo = VkStruct.typed(arena, DEVICE_QUEUE_CREATE, DEVICE_QUEUE_CREATE_INFO)
                    .i("queueFamilyIndex", family)
                    .i("queueCount", 1)
                    .p("pQueuePriorities", arena.allocateFrom(JAVA_FLOAT, 1f));
            VkStruct deviceInfo = VkStruct.typed(arena, DEVICE_CREATE, DEVICE_CREATE_INFO)
                    .i("queueCreateInfoCount", 1)
                    .p("pQueueCreateInfos", queueInfo.segment);
            MemorySegment out = arena.allocate(ADDRESS);
            api.check("vkCreateDevice", physical, deviceInfo.segment, MemorySegment.NULL, out);
            MemorySegment device = out.get(ADDRESS, 0);
            api.call("vkGetDeviceQueue", device, family, 0, out);
            MemorySegment queue = out.get(ADDRESS, 0);

            var m = VkStructs.VK_PHYSICAL_DEVICE_MEMORY_PROPERTIES;
            MemorySegment memory = arena.allocate(m);
            vk.physicalDeviceMemoryProperties(physical, memory);
            int types = memory.get(JAVA_INT, VkStructs.offset(m, "memoryTypeCount"));
            int[] flags = new int[types];
            for (int t = 0; t < types; t++) {
                flags[t] = memory.get(
                        JAVA_INT, VkStructs.offset(m, "memoryTypes") + t * VkStructs.VK_MEMORY_TYPE.byteSize());
            }
            int hostCoherent = MEMORY_PROPERTY_HOST_VISIBLE | MEMORY_PROPERTY_HOST_COHERENT;
            int staging = firstWith(flags, hostCoherent);
            int deviceLocal = firstWith(flags, MEMORY_PROPERTY_DEVICE_LOCAL);
            if (staging < 0) {
                api.call("vkDestroyDevice", device, MemorySegment.NULL);
                throw new BackendUnavailableException(info.name() + " has no host-visible coherent memory type");
            }
            if (deviceLocal < 0) deviceLocal = staging;
            boolean mapped = !forceStaging && (flags[deviceLocal] & hostCoherent) == hostCoherent;
            return new VulkanContext(
                    vk,
                    api,
                    instance,
                    physical,
                    device,
                    queue,
                    family,
                    info,
                    limits,
                    messages,
                    deviceLocal,
                    mapped,
                    staging);
        } catch (RuntimeException e) {
            if (messages != null) messages.close();
            if (instance != null) vk.destroyInstance(instance);
            throw e;
        }
    }

    private static int firstWith(int[] flags, int wanted) {
        for (int t = 0; t < flags.length; t++) if ((flags[t] & wanted) == wanted) return t;
        return -1;
    }

    private static int computeQueueFamily(VkApi api, Arena arena, MemorySegment physical, DeviceInfo info) {
        MemorySegment count = arena.allocate(JAVA_INT);
        api.call("vkGetPhysicalDeviceQueueFamilyProperties", physical, count, MemorySegment.NULL);
        int n = count.get(JAVA_INT, 0);
        MemorySegment families = arena.allocate(QUEUE_FAMILY_PROPERTIES, Math.max(1, n));
        api.call("vkGetPhysicalDeviceQueueFamilyProperties", physical, count, families);
        for (int f = 0; f < count.get(JAVA_INT, 0); f++) {
            if ((VkStruct.at(families, QUEUE_FAMILY_PROPERTIES, f).getInt("queueFlags") & QUEUE_COMPUTE_BIT) != 0)
                return f;
        }
        throw new BackendUnavailableException(info.name() + " has no queue family with compute support");
    }

    private static Limits limits(VkApi api, Arena arena, MemorySegment physical, boolean subgroups) {
        VkStruct subgroup = VkStruct.typed(arena, PHYSICAL_DEVICE_SUBGROUP, PHYSICAL_DEVICE_SUBGROUP_PROPERTIES);
        VkStruct props = VkStruct.typed(arena, PHYSICAL_DEVICE_PROPERTIES_2_STRUCT, PHYSICAL_DEVICE_PROPERTIES_2)
                .p("pNext", subgroup.segment);
        api.call("vkGetPhysicalDeviceProperties2", physical, props.segment);
        long base = VkStructs.offset(PHYSICAL_DEVICE_PROPERTIES_2_STRUCT, "properties")
                + VkStructs.offset(VkStructs.VK_PHYSICAL_DEVICE_PROPERTIES, "limits");
        MemorySegment s = props.segment;
        int[] groups = new int[3];
        for (int i = 0; i < 3; i++) groups[i] = s.get(JAVA_INT, base + LIMIT_MAX_COMPUTE_WORK_GROUP_COUNT + 4L * i);
        boolean arithmetic = subgroups
                && (subgroup.getInt("supportedStages") & SHADER_STAGE_COMPUTE) != 0
                && (subgroup.getInt("supportedOperations") & SUBGROUP_FEATURE_ARITHMETIC) != 0;
        return new Limits(
                Integer.toUnsignedLong(s.get(JAVA_INT, base + LIMIT_MAX_STORAGE_BUFFER_RANGE)),
                s.get(JAVA_INT, base + LIMIT_MAX_PUSH_CONSTANTS_SIZE),
                s.get(JAVA_INT, base + LIMIT_MAX_COMPUTE_SHARED_MEMORY_SIZE),
                groups,
                s.get(JAVA_INT, base + LIMIT_MAX_COMPUTE_WORK_GROUP_INVOCATIONS),
                s.get(JAVA_LONG, base + LIMIT_MIN_STORAGE_BUFFER_OFFSET_ALIGNMENT),
                subgroup.getInt("subgroupSize"),
                arithmetic);
    }

    /** Waits for the device, then destroys the device and the instance; every other object must be gone. */
    @Override
    public void close() {
        if (closed) return;
        closed = true;
        try {
            api.check("vkDeviceWaitIdle", device);
        } finally {
            api.call("vkDestroyDevice", device, MemorySegment.NULL);
            if (validation != null) validation.close();
            vk.destroyInstance(instance);
        }
    }
}
