package dev.audioengine.backend.vulkan.device;

import static java.lang.foreign.MemoryLayout.paddingLayout;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.audioengine.backend.vulkan.ffm.VkStructs;
import dev.audioengine.backend.vulkan.ffm.VulkanException;
import dev.audioengine.backend.vulkan.ffm.VulkanFunctions;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Collects the Khronos validation layer's warnings and errors for one instance through a
 * VK_EXT_debug_utils messenger whose callback is a Java upcall, so tests can assert that a run
 * produced none (the layer's default is to print them to stdout, where no test would look).
 */
public final class ValidationMessages implements AutoCloseable {
    static final String EXTENSION = "VK_EXT_debug_utils";
    private static final int STRUCTURE_TYPE = 1000128004; // VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT
    private static final int SEVERITY_WARNING = 0x100, SEVERITY_ERROR = 0x1000;
    private static final int TYPES = 0x1 | 0x2 | 0x4; // general, validation, performance

    public static final StructLayout CREATE_INFO = MemoryLayout.structLayout(
            JAVA_INT.withName("sType"),
            paddingLayout(4),
            ADDRESS.withName("pNext"),
            JAVA_INT.withName("flags"),
            JAVA_INT.withName("messageSeverity"),
            JAVA_INT.withName("messageType"),
            paddingLayout(4),
            ADDRESS.withName("pfnUserCallback"),
            ADDRESS.withName("pUserData"));

    /** Offset of pMessage in VkDebugUtilsMessengerCallbackDataEXT. */
    private static final long MESSAGE_OFFSET = 40;

    private static final Map<Long, List<String>> LOGS = new ConcurrentHashMap<>();
    private static final AtomicLong IDS = new AtomicLong(1);
    private static final MemorySegment CALLBACK = callbackStub();

    private final long id;
    private final List<String> log;
    private final MethodHandle destroy;
    private final MemorySegment instance;
    private final long messenger;

    private ValidationMessages(long id, MethodHandle destroy, MemorySegment instance, long messenger) {
        this.id = id;
        this.log = LOGS.get(id);
        this.destroy = destroy;
        this.instance = instance;
        this.messenger = messenger;
    }

    private static MemorySegment callbackStub() {
        try {
            MethodHandle target = MethodHandles.lookup()
                    .findStatic(
                            ValidationMessages.class,
                            "onMessage",
                            MethodType.methodType(
                                    int.class, int.class, int.class, MemorySegment.class, MemorySegment.class));
            return Linker.nativeLinker()
                    .upcallStub(
                            target,
                            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS),
                            Arena.global());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** PFN_vkDebugUtilsMessengerCallbackEXT: records the message, returns VK_FALSE (do not abort the call). */
    private static int onMessage(int severity, int types, MemorySegment data, MemorySegment user) {
        List<String> log = LOGS.get(user.address());
        if (log != null) {
            MemorySegment text = data.reinterpret(MESSAGE_OFFSET + 8).get(ADDRESS, MESSAGE_OFFSET);
            String message = text.equals(MemorySegment.NULL)
                    ? "(no message)"
                    : text.reinterpret(Long.MAX_VALUE).getString(0);
            synchronized (log) {
                log.add(((severity & SEVERITY_ERROR) != 0 ? "error: " : "warning: ") + message);
            }
        }
        return 0;
    }

    /** Installs a messenger on {@code instance} (made with the layer and {@link #EXTENSION}). */
    static ValidationMessages install(MethodHandle getInstanceProcAddr, MemorySegment instance) {
        try (Arena arena = Arena.ofConfined()) {
            MethodHandle create = function(
                    getInstanceProcAddr,
                    arena,
                    instance,
                    "vkCreateDebugUtilsMessengerEXT",
                    FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS));
            MethodHandle destroy = function(
                    getInstanceProcAddr,
                    arena,
                    instance,
                    "vkDestroyDebugUtilsMessengerEXT",
                    FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG, ADDRESS));
            long id = IDS.getAndIncrement();
            MemorySegment info = arena.allocate(CREATE_INFO);
            info.set(JAVA_INT, VkStructs.offset(CREATE_INFO, "sType"), STRUCTURE_TYPE);
            info.set(JAVA_INT, VkStructs.offset(CREATE_INFO, "messageSeverity"), SEVERITY_WARNING | SEVERITY_ERROR);
            info.set(JAVA_INT, VkStructs.offset(CREATE_INFO, "messageType"), TYPES);
            info.set(ADDRESS, VkStructs.offset(CREATE_INFO, "pfnUserCallback"), CALLBACK);
            info.set(ADDRESS, VkStructs.offset(CREATE_INFO, "pUserData"), MemorySegment.ofAddress(id));
            LOGS.put(id, new ArrayList<>());
            MemorySegment out = arena.allocate(JAVA_LONG);
            int r = (int) create.invokeExact(instance, info, MemorySegment.NULL, out);
            if (r != 0) {
                LOGS.remove(id);
                throw new VulkanException("vkCreateDebugUtilsMessengerEXT", r);
            }
            return new ValidationMessages(id, destroy, instance, out.get(JAVA_LONG, 0));
        } catch (Throwable t) {
            throw VulkanFunctions.rethrow(t);
        }
    }

    private static MethodHandle function(
            MethodHandle getInstanceProcAddr,
            Arena arena,
            MemorySegment instance,
            String name,
            FunctionDescriptor descriptor)
            throws Throwable {
        MemorySegment pfn = (MemorySegment) getInstanceProcAddr.invokeExact(instance, arena.allocateFrom(name));
        if (pfn.equals(MemorySegment.NULL))
            throw new IllegalStateException(name + " is not available on this instance");
        return Linker.nativeLinker().downcallHandle(pfn, descriptor);
    }

    /** Every warning and error so far, oldest first; still readable after close (leak reports come at vkDestroyDevice). */
    public List<String> messages() {
        synchronized (log) {
            return List.copyOf(log);
        }
    }

    @Override
    public void close() {
        try {
            destroy.invokeExact(instance, messenger, MemorySegment.NULL);
        } catch (Throwable t) {
            throw VulkanFunctions.rethrow(t);
        } finally {
            LOGS.remove(id);
        }
    }
}
