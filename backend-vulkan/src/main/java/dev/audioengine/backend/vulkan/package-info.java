/**
 * The Vulkan backend: Foreign Function and Memory bindings to libvulkan running SPIR-V compute shaders, one command
 * buffer per compiled segment. Found through {@link dev.audioengine.backend.vulkan.VulkanBackendProvider}.
 */
package dev.audioengine.backend.vulkan;
