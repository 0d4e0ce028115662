/** The Vulkan backend: FFM bindings to the vendor runtime; loads nothing native until probed. */
module dev.audioengine.backend.vulkan {
    requires dev.audioengine.api;

    exports dev.audioengine.backend.vulkan;

    provides dev.audioengine.api.spi.BackendProvider with
            dev.audioengine.backend.vulkan.VulkanBackendProvider;
}
