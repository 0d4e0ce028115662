package dev.audioengine.blocks.weights;

import dev.audioengine.api.tensor.HostTensor;
import java.util.List;

/** One weight file as the store reads it: tensors by their full name. */
interface WeightSource extends AutoCloseable {

    /**
     * The tensor of that full name in any dtype, or null when the file has none. {@code owned}
     * tells the store whether it must close the tensor (a computed value) or not (a view of the file).
     */
    Lookup find(String name);

    /** Stored tensor names, for messages that help a person find the right one. */
    List<String> names();

    /** Where the weights come from (a path), for messages. */
    String location();

    /** For a missing name: the ways it was looked for. */
    String triedFor(String name);

    @Override
    void close();

    record Lookup(HostTensor tensor, boolean owned) {}
}
