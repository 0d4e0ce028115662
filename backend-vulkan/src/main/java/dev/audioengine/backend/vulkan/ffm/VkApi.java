package dev.audioengine.backend.vulkan.ffm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.HashMap;
import java.util.Map;

/**
 * Downcalls for the Vulkan entry points the compute backend uses, all exported by the loader
 * (core 1.0, plus vkGetPhysicalDeviceProperties2 from 1.1). Signatures are written as
 * "result:args" with p = pointer or dispatchable handle, i = 32-bit, l = 64-bit (VkDeviceSize,
 * non-dispatchable handles), v = void. These calls happen while recording or per submit, not
 * per element, so the generic {@code invokeWithArguments} costs nothing that shows.
 */
public final class VkApi {
    private static final Linker LINKER = Linker.nativeLinker();

    private static final Map<String, String> SIGNATURES = Map.ofEntries(
            Map.entry("vkGetPhysicalDeviceQueueFamilyProperties", "v:ppp"),
            Map.entry("vkGetPhysicalDeviceProperties2", "v:pp"),
            Map.entry("vkCreateDevice", "i:pppp"),
            Map.entry("vkDestroyDevice", "v:pp"),
            Map.entry("vkDeviceWaitIdle", "i:p"),
            Map.entry("vkGetDeviceQueue", "v:piip"),
            Map.entry("vkCreateBuffer", "i:pppp"),
            Map.entry("vkDestroyBuffer", "v:plp"),
            Map.entry("vkGetBufferMemoryRequirements", "v:plp"),
            Map.entry("vkAllocateMemory", "i:pppp"),
            Map.entry("vkFreeMemory", "v:plp"),
            Map.entry("vkBindBufferMemory", "i:plll"),
            Map.entry("vkMapMemory", "i:plllip"),
            Map.entry("vkUnmapMemory", "v:pl"),
            Map.entry("vkCreateShaderModule", "i:pppp"),
            Map.entry("vkDestroyShaderModule", "v:plp"),
            Map.entry("vkCreateDescriptorSetLayout", "i:pppp"),
            Map.entry("vkDestroyDescriptorSetLayout", "v:plp"),
            Map.entry("vkCreatePipelineLayout", "i:pppp"),
            Map.entry("vkDestroyPipelineLayout", "v:plp"),
            Map.entry("vkCreateComputePipelines", "i:plippp"),
            Map.entry("vkDestroyPipeline", "v:plp"),
            Map.entry("vkCreateDescriptorPool", "i:pppp"),
            Map.entry("vkDestroyDescriptorPool", "v:plp"),
            Map.entry("vkAllocateDescriptorSets", "i:ppp"),
            Map.entry("vkUpdateDescriptorSets", "v:pipip"),
            Map.entry("vkCreateCommandPool", "i:pppp"),
            Map.entry("vkDestroyCommandPool", "v:plp"),
            Map.entry("vkAllocateCommandBuffers", "i:ppp"),
            Map.entry("vkFreeCommandBuffers", "v:plip"),
            Map.entry("vkBeginCommandBuffer", "i:pp"),
            Map.entry("vkEndCommandBuffer", "i:p"),
            Map.entry("vkResetCommandBuffer", "i:pi"),
            Map.entry("vkCmdBindPipeline", "v:pil"),
            Map.entry("vkCmdBindDescriptorSets", "v:piliipip"),
            Map.entry("vkCmdPushConstants", "v:pliiip"),
            Map.entry("vkCmdDispatch", "v:piii"),
            Map.entry("vkCmdPipelineBarrier", "v:piiiipipip"),
            Map.entry("vkCmdCopyBuffer", "v:pllip"),
            Map.entry("vkCreateFence", "i:pppp"),
            Map.entry("vkDestroyFence", "v:plp"),
            Map.entry("vkResetFences", "i:pip"),
            Map.entry("vkWaitForFences", "i:pipil"),
            Map.entry("vkQueueSubmit", "i:pipl"));

    private final Map<String, MethodHandle> handles = new HashMap<>();

    /** Binds every entry point; throws IllegalStateException naming the first one the library lacks. */
    public VkApi(SymbolLookup lib, String libraryName) {
        for (Map.Entry<String, String> e : SIGNATURES.entrySet()) {
            MemorySegment symbol = lib.find(e.getKey())
                    .orElseThrow(() -> new IllegalStateException(
                            libraryName + " does not export " + e.getKey() + "; a Vulkan 1.1 loader is needed"));
            handles.put(e.getKey(), LINKER.downcallHandle(symbol, descriptor(e.getValue())));
        }
    }

    private static FunctionDescriptor descriptor(String signature) {
        String[] parts = signature.split(":");
        MemoryLayout[] args = new MemoryLayout[parts[1].length()];
        for (int i = 0; i < args.length; i++) args[i] = layout(parts[1].charAt(i));
        return parts[0].equals("v")
                ? FunctionDescriptor.ofVoid(args)
                : FunctionDescriptor.of(layout(parts[0].charAt(0)), args);
    }

    private static MemoryLayout layout(char c) {
        return switch (c) {
            case 'p' -> ADDRESS;
            case 'i' -> JAVA_INT;
            case 'l' -> JAVA_LONG;
            default -> throw new IllegalArgumentException("signature letter " + c);
        };
    }

    /** Calls a function returning VkResult and throws VulkanException unless it is VK_SUCCESS. */
    public void check(String function, Object... args) {
        int result = (int) invoke(function, args);
        if (result != VkResults.VK_SUCCESS) throw new VulkanException(function, result);
    }

    /** Calls a function and returns its VkResult (for VK_TIMEOUT and friends). */
    public int result(String function, Object... args) {
        return (int) invoke(function, args);
    }

    /** Calls a void function. */
    public void call(String function, Object... args) {
        invoke(function, args);
    }

    private Object invoke(String function, Object[] args) {
        MethodHandle h = handles.get(function);
        if (h == null) throw new IllegalArgumentException("no binding for " + function);
        try {
            return h.invokeWithArguments(args);
        } catch (Throwable t) {
            throw VulkanFunctions.rethrow(t);
        }
    }
}
