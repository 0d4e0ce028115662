package dev.audioengine.backend.vulkan;

/** A Vulkan call returned an error VkResult; the message names the call and the result. */
final class VulkanException extends RuntimeException {
    private final int result;

    VulkanException(String call, int result) {
        super(call + " failed: " + VkResults.name(result));
        this.result = result;
    }

    int result() { return result; }
}
