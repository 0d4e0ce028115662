package dev.audioengine.backend.vulkan.ffm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

/**
 * Downcall handles for the Vulkan 1.0 entry points the loader exports, plus
 * vkGetPhysicalDeviceMemoryProperties2 (1.1) fetched per instance with vkGetInstanceProcAddr.
 * VkInstance and VkPhysicalDevice are dispatchable handles: pointers.
 */
public final class VulkanFunctions {
    private static final Linker LINKER = Linker.nativeLinker();

    /** Absent from 1.0 loaders, whose instances can only be 1.0. */
    private final Optional<MethodHandle> vkEnumerateInstanceVersion;

    private final MethodHandle vkCreateInstance;
    private final MethodHandle vkDestroyInstance;
    private final MethodHandle vkEnumeratePhysicalDevices;
    private final MethodHandle vkGetPhysicalDeviceProperties;
    private final MethodHandle vkGetPhysicalDeviceMemoryProperties;
    private final MethodHandle vkEnumerateDeviceExtensionProperties;
    private final MethodHandle vkGetInstanceProcAddr;

    /** Binds every entry point; throws IllegalStateException naming the first missing symbol. */
    public VulkanFunctions(SymbolLookup lib, String libraryName) {
        vkEnumerateInstanceVersion = lib.find("vkEnumerateInstanceVersion")
                .map(s -> LINKER.downcallHandle(s, FunctionDescriptor.of(JAVA_INT, ADDRESS)));
        vkCreateInstance =
                bind(lib, libraryName, "vkCreateInstance", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        vkDestroyInstance = bind(lib, libraryName, "vkDestroyInstance", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS));
        vkEnumeratePhysicalDevices = bind(
                lib,
                libraryName,
                "vkEnumeratePhysicalDevices",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        vkGetPhysicalDeviceProperties =
                bind(lib, libraryName, "vkGetPhysicalDeviceProperties", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS));
        vkGetPhysicalDeviceMemoryProperties = bind(
                lib, libraryName, "vkGetPhysicalDeviceMemoryProperties", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS));
        vkEnumerateDeviceExtensionProperties = bind(
                lib,
                libraryName,
                "vkEnumerateDeviceExtensionProperties",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS));
        vkGetInstanceProcAddr =
                bind(lib, libraryName, "vkGetInstanceProcAddr", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
    }

    private static MethodHandle bind(SymbolLookup lib, String libraryName, String name, FunctionDescriptor descriptor) {
        MemorySegment symbol = lib.find(name)
                .orElseThrow(() -> new IllegalStateException(
                        libraryName + " does not export " + name + "; it is not the Vulkan loader (libvulkan)"));
        return LINKER.downcallHandle(symbol, descriptor);
    }

    public static void check(int result, String call) {
        if (result != VkResults.VK_SUCCESS) throw new VulkanException(call, result);
    }

    /** The loader's instance-level version, or 1.0 for a loader that predates the query. */
    public int instanceVersion(Arena arena) {
        if (vkEnumerateInstanceVersion.isEmpty()) return VkStructs.apiVersion(1, 0);
        MemorySegment out = arena.allocate(JAVA_INT);
        try {
            check((int) vkEnumerateInstanceVersion.get().invokeExact(out), "vkEnumerateInstanceVersion");
        } catch (Throwable t) {
            throw rethrow(t);
        }
        return out.get(JAVA_INT, 0);
    }

    public MemorySegment createInstance(Arena arena, MemorySegment createInfo) {
        MemorySegment out = arena.allocate(ADDRESS);
        try {
            check((int) vkCreateInstance.invokeExact(createInfo, MemorySegment.NULL, out), "vkCreateInstance");
        } catch (Throwable t) {
            throw rethrow(t);
        }
        return out.get(ADDRESS, 0);
    }

    public void destroyInstance(MemorySegment instance) {
        try {
            vkDestroyInstance.invokeExact(instance, MemorySegment.NULL);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Returns the VK_SUCCESS / VK_INCOMPLETE result for the caller's two-call idiom. */
    public int enumeratePhysicalDevices(MemorySegment instance, MemorySegment count, MemorySegment devices) {
        try {
            return (int) vkEnumeratePhysicalDevices.invokeExact(instance, count, devices);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public void physicalDeviceProperties(MemorySegment device, MemorySegment properties) {
        try {
            vkGetPhysicalDeviceProperties.invokeExact(device, properties);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public void physicalDeviceMemoryProperties(MemorySegment device, MemorySegment properties) {
        try {
            vkGetPhysicalDeviceMemoryProperties.invokeExact(device, properties);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public int enumerateDeviceExtensionProperties(MemorySegment device, MemorySegment count, MemorySegment properties) {
        try {
            return (int)
                    vkEnumerateDeviceExtensionProperties.invokeExact(device, MemorySegment.NULL, count, properties);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** vkGetPhysicalDeviceMemoryProperties2 of this instance, absent when the instance is 1.0. */
    public Optional<MethodHandle> physicalDeviceMemoryProperties2(Arena arena, MemorySegment instance) {
        try {
            MemorySegment pfn = (MemorySegment) vkGetInstanceProcAddr.invokeExact(
                    instance, arena.allocateFrom("vkGetPhysicalDeviceMemoryProperties2"));
            return pfn.equals(MemorySegment.NULL)
                    ? Optional.empty()
                    : Optional.of(LINKER.downcallHandle(pfn, FunctionDescriptor.ofVoid(ADDRESS, ADDRESS)));
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public MethodHandle getInstanceProcAddr() {
        return vkGetInstanceProcAddr;
    }

    /** Downcalls declare Throwable; ours only ever throw unchecked exceptions or errors. */
    public static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) throw r;
        if (t instanceof Error e) throw e;
        throw new IllegalStateException(t);
    }
}
