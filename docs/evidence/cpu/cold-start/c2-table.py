# Reads `jfr print --events jdk.Compilation FILE` output (one or more files) and prints the C2 compiles by kind of
# code and the methods with the most C2 time: python3 c2-table.py base.txt [more.txt]; TOP=N for more rows.
import re,sys,collections
def parse(path):
    ev=[];cur=None
    for line in open(path):
        line=line.strip()
        if line.startswith('jdk.Compilation'): cur={}
        elif line=='}' and cur is not None: ev.append(cur);cur=None
        elif cur is not None and ' = ' in line:
            k,v=line.split(' = ',1); cur[k]=v
    return ev
def dur(v):
    n,u=v.split(); n=float(n.replace(',',''))
    return n/1000 if u=='ms' else (n if u=='s' else n/1e6)
def size(v):
    n,u=v.split(); n=float(n.replace(',',''))
    return n*{'bytes':1,'byte':1,'kB':1024,'MB':1<<20}[u]
def cat(m):
    if m.startswith('dev.audioengine.backend.cpu.kernels'): return 'kernels'
    if m.startswith('dev.audioengine'): return 'engine other'
    if 'jdk.incubator.vector' in m or 'jdk.internal.vm.vector' in m: return 'vector fallback'
    if m.startswith('java.lang.classfile') or m.startswith('jdk.internal.classfile') or 'java.lang.invoke' in m: return 'classfile/invoke'
    return 'other JDK'
for path in sys.argv[1:]:
    ev=[e for e in parse(path) if e.get('compiler')=='"c2"']
    tot=sum(dur(e['duration']) for e in ev)
    print(path, 'C2 compiles',len(ev),'total %.2f s'%tot, 'C1 total %.2f s'%sum(dur(e['duration']) for e in parse(path) if e.get('compiler')=='"c1"'))
    c=collections.defaultdict(lambda:[0,0.0,0])
    for e in ev:
        k=cat(e['method']); c[k][0]+=1; c[k][1]+=dur(e['duration']); c[k][2]+=size(e['codeSize'])
    for k,v in sorted(c.items(),key=lambda kv:-kv[1][1]): print('  %-18s %4d compiles %6.2f s %8.0f kB code'%(k,v[0],v[1],v[2]/1024))
    m=collections.defaultdict(lambda:[0,0.0,0,0])
    for e in ev:
        mm=e['method']+(' (OSR)' if e['isOsr']=='true' else '')
        m[mm][0]+=1;m[mm][1]+=dur(e['duration']);m[mm][2]=max(m[mm][2],size(e['codeSize']));m[mm][3]=max(m[mm][3],size(e['inlinedBytes']))
    print('  top methods by C2 time:')
    for k,v in sorted(m.items(),key=lambda kv:-kv[1][1])[:int(__import__('os').environ.get('TOP','25'))]:
        print('   %6.3f s x%d code %5.0f kB inl %5.0f B  %s'%(v[1],v[0],v[2]/1024,v[3],k[:150]))
