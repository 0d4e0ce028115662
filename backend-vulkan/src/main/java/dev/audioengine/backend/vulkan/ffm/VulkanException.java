package dev.audioengine.backend.vulkan.ffm;

/** A Vulkan call returned an error VkResult; the message names the call and the result. */
public final class VulkanException extends RuntimeException {
    private final int result;

    public VulkanException(String call, int result) {
        super(call + " failed: " + VkResults.name(result));
        this.result = result;
    }

    public int result() {
        return result;
    }
}
