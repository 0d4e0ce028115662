package dev.audioengine.backend.vulkan.ffm;

import static java.lang.foreign.MemoryLayout.paddingLayout;
import static java.lang.foreign.MemoryLayout.sequenceLayout;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;

/**
 * The vulkan_core.h structs and constants the compute backend records with, LP64 layout with the
 * padding spelled out (the FFM checks each field's alignment; sizes are checked against gcc's
 * sizeof in VkComputeStructsTest). Non-dispatchable handles are 64-bit values (JAVA_LONG).
 */
public final class VkComputeStructs {
    private VkComputeStructs() {}

    // VkStructureType
    public static final int DEVICE_QUEUE_CREATE_INFO = 2;
    public static final int DEVICE_CREATE_INFO = 3;
    public static final int SUBMIT_INFO = 4;
    public static final int MEMORY_ALLOCATE_INFO = 5;
    public static final int FENCE_CREATE_INFO = 8;
    public static final int BUFFER_CREATE_INFO = 12;
    public static final int SHADER_MODULE_CREATE_INFO = 16;
    public static final int PIPELINE_SHADER_STAGE_CREATE_INFO = 18;
    public static final int COMPUTE_PIPELINE_CREATE_INFO = 29;
    public static final int PIPELINE_LAYOUT_CREATE_INFO = 30;
    public static final int DESCRIPTOR_SET_LAYOUT_CREATE_INFO = 32;
    public static final int DESCRIPTOR_POOL_CREATE_INFO = 33;
    public static final int DESCRIPTOR_SET_ALLOCATE_INFO = 34;
    public static final int WRITE_DESCRIPTOR_SET = 35;
    public static final int COMMAND_POOL_CREATE_INFO = 39;
    public static final int COMMAND_BUFFER_ALLOCATE_INFO = 40;
    public static final int COMMAND_BUFFER_BEGIN_INFO = 42;
    public static final int MEMORY_BARRIER = 46;
    public static final int PHYSICAL_DEVICE_SUBGROUP_PROPERTIES = 1000094000;
    public static final int PHYSICAL_DEVICE_PROPERTIES_2 = 1000059001;

    // flags and enums
    public static final int QUEUE_COMPUTE_BIT = 0x2;
    public static final int MEMORY_PROPERTY_DEVICE_LOCAL = 0x1;
    public static final int MEMORY_PROPERTY_HOST_VISIBLE = 0x2;
    public static final int MEMORY_PROPERTY_HOST_COHERENT = 0x4;
    public static final int BUFFER_USAGE_TRANSFER_SRC = 0x1;
    public static final int BUFFER_USAGE_TRANSFER_DST = 0x2;
    public static final int BUFFER_USAGE_STORAGE = 0x20;
    public static final int DESCRIPTOR_TYPE_STORAGE_BUFFER = 7;
    public static final int SHADER_STAGE_COMPUTE = 0x20;
    public static final int PIPELINE_BIND_POINT_COMPUTE = 1;
    public static final int COMMAND_BUFFER_LEVEL_PRIMARY = 0;
    public static final int COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER = 0x2;
    public static final int COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT = 0x1;
    public static final int PIPELINE_STAGE_TRANSFER = 0x1000;
    public static final int PIPELINE_STAGE_COMPUTE_SHADER = 0x800;
    public static final int PIPELINE_STAGE_HOST = 0x4000;
    public static final int ACCESS_SHADER_READ = 0x20;
    public static final int ACCESS_SHADER_WRITE = 0x40;
    public static final int ACCESS_TRANSFER_READ = 0x800;
    public static final int ACCESS_TRANSFER_WRITE = 0x1000;
    public static final int ACCESS_HOST_READ = 0x2000;
    public static final int ACCESS_HOST_WRITE = 0x4000;
    public static final long WHOLE_SIZE = -1L;
    public static final int SUBGROUP_FEATURE_ARITHMETIC = 0x4;

    public static final StructLayout DEVICE_QUEUE_CREATE = MemoryLayout.structLayout(
            JAVA_INT.withName("sType"),
            paddingLayout(4),
            ADDRESS.withName("pNext"),
            JAVA_INT.withName("flags"),
            JAVA_INT.withName("queueFamilyIndex"),
            JAVA_INT.withName("queueCount"),
            paddingLayout(4),
            ADDRESS.withName("pQueuePriorities"));

    public static final StructLayout DEVICE_CREATE = MemoryLayout.structLayout(
            JAVA_INT.withName("sType"),
            paddingLayout(4),
            ADDRESS.withName("pNext"),
            JAVA_INT.withName("flags"),
            JAVA_INT.withName("queueCreateInfoCount"),
            ADDRESS.withName("pQueueCreateInfos"),
            JAVA_INT.withName("enabledLayerCount"),
            paddingLayout(4),
            ADDRESS.withName("ppEnabledLayerNames"),
            JAVA_INT.withName("enabledExtensionCount"),
            paddingLayout(4),
            ADDRESS.withName("ppEnabledExtensionNames"),
            ADDRESS.withName("pEnabledFeatures"));

    public static final StructLayout QUEUE_FAMILY_PROPERTIES = MemoryLayout.structLayout(
            JAVA_INT.withName("queueFlags"),
            JAVA_INT.withName("queueCount"),
            JAVA_INT.withName("timestampValidBits"),
            sequenceLayout(3, JAVA_INT).withName("minImageTransferGranularity"));

    public static final StructLayout BUFFER_CREATE = MemoryLayout.structLayout(
            JAVA_INT.withName("sType"),
            paddingLayout(4),
            ADDRESS.withName("pNext"),
            JAVA_INT.withName("flags"),
            paddingLayout(4),
            JAVA_LONG.withName("size"),
            JAVA_INT.withName("usage"),
            JAVA_INT.withName("sharingMode"),
            JAVA_INT.withName("queueFamilyIndexCount"),
            paddingLayout(4),
            ADDRESS.withName("pQueueFamilyIndices"));

    public static final StructLayout MEMORY_REQUIREMENTS = MemoryLayout.structLayout(
            JAVA_LONG.withName("size"),
            JAVA_LONG.withName("alignment"),
            JAVA_INT.withName("memoryTypeBits"),
            paddingLayout(4));

    public static final StructLayout MEMORY_ALLOCATE = MemoryLayout.structLayout(
            JAVA_INT.withName("sType"),
            paddingLayout(4),
            ADDRESS.withName("pNext"),
            JAVA_LONG.withName("allocationSize"),
            JAVA_INT.withName("memoryTypeIndex"),
            paddingLayout(4));

    public static final StructLayout SHADER_MODULE_CREATE = MemoryLayout.structLayout(
            JAVA_INT.withName("sType"),
            paddingLayout(4),
            ADDRESS.withName("pNext"),
            JAVA_INT.withName("flags"),
            paddingLayout(4),
            JAVA_LONG.withName("codeSize"),
            ADDRESS.withName("pCode"));

    public static final StructLayout DESCRIPTOR_SET_LAYOUT_BINDING = MemoryLayout.structLayout(
            JAVA_INT.withName("binding"),
            JAVA_INT.withName("descriptorType"),
            JAVA_INT.withName("descriptorCount"),
            JAVA_INT.withName("stageFlags"),
            ADDRESS.withName("pImmutableSamplers"));

    public static final StructLayout DESCRIPTOR_SET_LAYOUT_CREATE = MemoryLayout.structLayout(
            JAVA_INT.withName("sType"),
            paddingLayout(4),
            ADDRESS.withName("pNext"),
            JAVA_INT.withName("flags"),
            JAVA_INT.withName("bindingCount"),
            ADDRESS.withName("pBindings"));

    public static final StructLayout PUSH_CONSTANT_RANGE = MemoryLayout.structLayout(
            JAVA_INT.withName("stageFlags"), JAVA_INT.withName("offset"), JAVA_INT.withName("size"));

    public static final StructLayout PIPELINE_LAYOUT_CREATE = MemoryLayout.structLayout(
            JAVA_INT.withName("sType"),
            paddingLayout(4),
            ADDRESS.withName("pNext"),
            JAVA_INT.withName("flags"),
            JAVA_INT.withName("setLayoutCount"),
            ADDRESS.withName("pSetLayouts"),
            JAVA_INT.withName("pushConstantRangeCount"),
            paddingLayout(4),
            ADDRESS.withName("pPushConstantRanges"));

    public static final StructLayout SPECIALIZATION_MAP_ENTRY = MemoryLayout.structLayout(
            JAVA_INT.withName("constantID"), JAVA_INT.withName("offset"), JAVA_LONG.withName("size"));

    public static final StructLayout SPECIALIZATION_INFO = MemoryLayout.structLayout(
            JAVA_INT.withName("mapEntryCount"),
            paddingLayout(4),
            ADDRESS.withName("pMapEntries"),
            JAVA_LONG.withName("dataSize"),
            ADDRESS.withName("pData"));

    public static final StructLayout PIPELINE_SHADER_STAGE_CREATE = MemoryLayout.structLayout(
            JAVA_INT.withName("sType"),
            paddingLayout(4),
            ADDRESS.withName("pNext"),
            JAVA_INT.withName("flags"),
            JAVA_INT.withName("stage"),
            JAVA_LONG.withName("module"),
            ADDRESS.withName("pName"),
            ADDRESS.withName("pSpecializationInfo"));

    public static final StructLayout COMPUTE_PIPELINE_CREATE = MemoryLayout.structLayout(
            JAVA_INT.withName("sType"),
            paddingLayout(4),
            ADDRESS.withName("pNext"),
            JAVA_INT.withName("flags"),
            paddingLayout(4),
            PIPELINE_SHADER_STAGE_CREATE.withName("stage"),
            JAVA_LONG.withName("layout"),
            JAVA_LONG.withName("basePipelineHandle"),
            JAVA_INT.withName("basePipelineIndex"),
            paddingLayout(4));

    public static final StructLayout DESCRIPTOR_POOL_SIZE =
            MemoryLayout.structLayout(JAVA_INT.withName("type"), JAVA_INT.withName("descriptorCount"));

    public static final StructLayout DESCRIPTOR_POOL_CREATE = MemoryLayout.structLayout(
            JAVA_INT.withName("sType"),
            paddingLayout(4),
            ADDRESS.withName("pNext"),
            JAVA_INT.withName("flags"),
            JAVA_INT.withName("maxSets"),
            JAVA_INT.withName("poolSizeCount"),
            paddingLayout(4),
            ADDRESS.withName("pPoolSizes"));

    public static final StructLayout DESCRIPTOR_SET_ALLOCATE = MemoryLayout.structLayout(
            JAVA_INT.withName("sType"),
            paddingLayout(4),
            ADDRESS.withName("pNext"),
            JAVA_LONG.withName("descriptorPool"),
            JAVA_INT.withName("descriptorSetCount"),
            paddingLayout(4),
            ADDRESS.withName("pSetLayouts"));

    public static final StructLayout DESCRIPTOR_BUFFER_INFO = MemoryLayout.structLayout(
            JAVA_LONG.withName("buffer"), JAVA_LONG.withName("offset"), JAVA_LONG.withName("range"));

    public static final StructLayout WRITE_DESCRIPTOR = MemoryLayout.structLayout(
            JAVA_INT.withName("sType"),
            paddingLayout(4),
            ADDRESS.withName("pNext"),
            JAVA_LONG.withName("dstSet"),
            JAVA_INT.withName("dstBinding"),
            JAVA_INT.withName("dstArrayElement"),
            JAVA_INT.withName("descriptorCount"),
            JAVA_INT.withName("descriptorType"),
            ADDRESS.withName("pImageInfo"),
            ADDRESS.withName("pBufferInfo"),
            ADDRESS.withName("pTexelBufferView"));

    public static final StructLayout COMMAND_POOL_CREATE = MemoryLayout.structLayout(
            JAVA_INT.withName("sType"),
            paddingLayout(4),
            ADDRESS.withName("pNext"),
            JAVA_INT.withName("flags"),
            JAVA_INT.withName("queueFamilyIndex"));

    public static final StructLayout COMMAND_BUFFER_ALLOCATE = MemoryLayout.structLayout(
            JAVA_INT.withName("sType"),
            paddingLayout(4),
            ADDRESS.withName("pNext"),
            JAVA_LONG.withName("commandPool"),
            JAVA_INT.withName("level"),
            JAVA_INT.withName("commandBufferCount"));

    public static final StructLayout COMMAND_BUFFER_BEGIN = MemoryLayout.structLayout(
            JAVA_INT.withName("sType"),
            paddingLayout(4),
            ADDRESS.withName("pNext"),
            JAVA_INT.withName("flags"),
            paddingLayout(4),
            ADDRESS.withName("pInheritanceInfo"));

    public static final StructLayout MEMORY_BARRIER_STRUCT = MemoryLayout.structLayout(
            JAVA_INT.withName("sType"),
            paddingLayout(4),
            ADDRESS.withName("pNext"),
            JAVA_INT.withName("srcAccessMask"),
            JAVA_INT.withName("dstAccessMask"));

    public static final StructLayout BUFFER_COPY = MemoryLayout.structLayout(
            JAVA_LONG.withName("srcOffset"), JAVA_LONG.withName("dstOffset"), JAVA_LONG.withName("size"));

    public static final StructLayout SUBMIT = MemoryLayout.structLayout(
            JAVA_INT.withName("sType"),
            paddingLayout(4),
            ADDRESS.withName("pNext"),
            JAVA_INT.withName("waitSemaphoreCount"),
            paddingLayout(4),
            ADDRESS.withName("pWaitSemaphores"),
            ADDRESS.withName("pWaitDstStageMask"),
            JAVA_INT.withName("commandBufferCount"),
            paddingLayout(4),
            ADDRESS.withName("pCommandBuffers"),
            JAVA_INT.withName("signalSemaphoreCount"),
            paddingLayout(4),
            ADDRESS.withName("pSignalSemaphores"));

    public static final StructLayout FENCE_CREATE = MemoryLayout.structLayout(
            JAVA_INT.withName("sType"),
            paddingLayout(4),
            ADDRESS.withName("pNext"),
            JAVA_INT.withName("flags"),
            paddingLayout(4));

    public static final StructLayout PHYSICAL_DEVICE_SUBGROUP = MemoryLayout.structLayout(
            JAVA_INT.withName("sType"),
            paddingLayout(4),
            ADDRESS.withName("pNext"),
            JAVA_INT.withName("subgroupSize"),
            JAVA_INT.withName("supportedStages"),
            JAVA_INT.withName("supportedOperations"),
            JAVA_INT.withName("quadOperationsInAllStages"));

    public static final StructLayout PHYSICAL_DEVICE_PROPERTIES_2_STRUCT = MemoryLayout.structLayout(
            JAVA_INT.withName("sType"),
            paddingLayout(4),
            ADDRESS.withName("pNext"),
            VkStructs.VK_PHYSICAL_DEVICE_PROPERTIES.withName("properties"));

    /** Byte offsets inside VkPhysicalDeviceLimits of the limits compute dispatch needs (gcc's offsetof on vulkan_core.h 1.3.239). */
    public static final long LIMIT_MAX_STORAGE_BUFFER_RANGE = 28;

    public static final long LIMIT_MAX_PUSH_CONSTANTS_SIZE = 32;
    public static final long LIMIT_MAX_COMPUTE_SHARED_MEMORY_SIZE = 216;
    public static final long LIMIT_MAX_COMPUTE_WORK_GROUP_COUNT = 220;
    public static final long LIMIT_MAX_COMPUTE_WORK_GROUP_INVOCATIONS = 232;
    public static final long LIMIT_MIN_STORAGE_BUFFER_OFFSET_ALIGNMENT = 328;
}
