package dev.audioengine.backend.vulkan.pipeline;

import static dev.audioengine.backend.vulkan.ffm.VkComputeStructs.*;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.audioengine.backend.vulkan.device.VulkanContext;
import dev.audioengine.backend.vulkan.ffm.VkApi;
import dev.audioengine.backend.vulkan.ffm.VkStruct;
import dev.audioengine.backend.vulkan.ffm.VkStructs;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Shader modules, their descriptor-set and pipeline layouts (one per shader) and compute
 * pipelines (one per shader and specialization-constant values), made on first use and kept
 * until the backend closes.
 */
public final class Pipelines implements AutoCloseable {
    public static final int PUSH_CONSTANT_BYTES = 128;

    /** A pipeline and the layouts it binds with. */
    public record Pipeline(long pipeline, long layout, long setLayout, int bindings) {}

    private record Layouts(long module, long setLayout, long layout) {}

    private record Key(Shader shader, List<Integer> spec) {}

    private final VulkanContext ctx;
    private final Map<Shader, Layouts> layouts = new EnumMap<>(Shader.class);
    private final Map<Key, Pipeline> pipelines = new HashMap<>();

    public Pipelines(VulkanContext ctx) {
        this.ctx = ctx;
    }

    public Pipeline get(Shader shader, int[] spec) {
        Key key = new Key(shader, Arrays.stream(spec).boxed().toList());
        Pipeline p = pipelines.get(key);
        if (p == null) {
            p = create(shader, layouts.computeIfAbsent(shader, this::layouts), spec);
            pipelines.put(key, p);
        }
        return p;
    }

    private Layouts layouts(Shader shader) {
        VkApi api = ctx.api;
        try (Arena arena = Arena.ofConfined()) {
            byte[] code = spirv(shader);
            MemorySegment words = arena.allocate(code.length, 4);
            MemorySegment.copy(code, 0, words, JAVA_BYTE, 0, code.length);
            VkStruct moduleInfo = VkStruct.typed(arena, SHADER_MODULE_CREATE, SHADER_MODULE_CREATE_INFO)
                    .l("codeSize", code.length)
                    .p("pCode", words);
            MemorySegment out = arena.allocate(JAVA_LONG);
            api.check("vkCreateShaderModule", ctx.device, moduleInfo.segment, MemorySegment.NULL, out);
            long module = out.get(JAVA_LONG, 0);

            MemorySegment bindings = arena.allocate(DESCRIPTOR_SET_LAYOUT_BINDING, shader.bindings);
            for (int b = 0; b < shader.bindings; b++) {
                VkStruct.at(bindings, DESCRIPTOR_SET_LAYOUT_BINDING, b)
                        .i("binding", b)
                        .i("descriptorType", DESCRIPTOR_TYPE_STORAGE_BUFFER)
                        .i("descriptorCount", 1)
                        .i("stageFlags", SHADER_STAGE_COMPUTE);
            }
            VkStruct setInfo = VkStruct.typed(arena, DESCRIPTOR_SET_LAYOUT_CREATE, DESCRIPTOR_SET_LAYOUT_CREATE_INFO)
                    .i("bindingCount", shader.bindings)
                    .p("pBindings", bindings);
            api.check("vkCreateDescriptorSetLayout", ctx.device, setInfo.segment, MemorySegment.NULL, out);
            long setLayout = out.get(JAVA_LONG, 0);

            VkStruct range = VkStruct.plain(arena, PUSH_CONSTANT_RANGE)
                    .i("stageFlags", SHADER_STAGE_COMPUTE)
                    .i("size", PUSH_CONSTANT_BYTES);
            MemorySegment setLayouts = arena.allocateFrom(JAVA_LONG, setLayout);
            VkStruct layoutInfo = VkStruct.typed(arena, PIPELINE_LAYOUT_CREATE, PIPELINE_LAYOUT_CREATE_INFO)
                    .i("setLayoutCount", 1)
                    .p("pSetLayouts", setLayouts)
                    .i("pushConstantRangeCount", 1)
                    .p("pPushConstantRanges", range.segment);
            api.check("vkCreatePipelineLayout", ctx.device, layoutInfo.segment, MemorySegment.NULL, out);
            return new Layouts(module, setLayout, out.get(JAVA_LONG, 0));
        }
    }

    private Pipeline create(Shader shader, Layouts l, int[] spec) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment entries = arena.allocate(SPECIALIZATION_MAP_ENTRY, Math.max(1, spec.length));
            for (int i = 0; i < spec.length; i++) {
                VkStruct.at(entries, SPECIALIZATION_MAP_ENTRY, i)
                        .i("constantID", i)
                        .i("offset", 4 * i)
                        .l("size", 4);
            }
            VkStruct specInfo = VkStruct.plain(arena, SPECIALIZATION_INFO)
                    .i("mapEntryCount", spec.length)
                    .p("pMapEntries", entries)
                    .l("dataSize", 4L * spec.length)
                    .p("pData", arena.allocateFrom(JAVA_INT, spec));
            VkStruct info = VkStruct.typed(arena, COMPUTE_PIPELINE_CREATE, COMPUTE_PIPELINE_CREATE_INFO)
                    .l("layout", l.layout())
                    .i("basePipelineIndex", -1);
            long stage = VkStructs.offset(COMPUTE_PIPELINE_CREATE, "stage");
            VkStruct.at(info.segment.asSlice(stage), PIPELINE_SHADER_STAGE_CREATE, 0)
                    .i("sType", PIPELINE_SHADER_STAGE_CREATE_INFO)
                    .i("stage", SHADER_STAGE_COMPUTE)
                    .l("module", l.module())
                    .p("pName", arena.allocateFrom("main"))
                    .p("pSpecializationInfo", specInfo.segment);
            MemorySegment out = arena.allocate(JAVA_LONG);
            ctx.api.check("vkCreateComputePipelines", ctx.device, 0L, 1, info.segment, MemorySegment.NULL, out);
            return new Pipeline(out.get(JAVA_LONG, 0), l.layout(), l.setLayout(), shader.bindings);
        }
    }

    private static byte[] spirv(Shader shader) {
        try (InputStream in = Pipelines.class.getResourceAsStream(shader.resource())) {
            if (in == null)
                throw new IllegalStateException(
                        "SPIR-V resource " + shader.resource() + " is missing from the backend-vulkan jar");
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + shader.resource(), e);
        }
    }

    @Override
    public void close() {
        for (Pipeline p : pipelines.values())
            ctx.api.call("vkDestroyPipeline", ctx.device, p.pipeline(), MemorySegment.NULL);
        for (Layouts l : layouts.values()) {
            ctx.api.call("vkDestroyPipelineLayout", ctx.device, l.layout(), MemorySegment.NULL);
            ctx.api.call("vkDestroyDescriptorSetLayout", ctx.device, l.setLayout(), MemorySegment.NULL);
            ctx.api.call("vkDestroyShaderModule", ctx.device, l.module(), MemorySegment.NULL);
        }
        pipelines.clear();
        layouts.clear();
    }
}
