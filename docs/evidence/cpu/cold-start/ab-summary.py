import sys,re,statistics as st,collections
rows=collections.defaultdict(list)
for line in open(sys.argv[1]):
    p=line.split()
    if len(p)<5 or p[0] in('FAIL','->') or not re.match(r'^[\d.]+$',p[1]): continue
    d={'wall':float(p[1]),'user':float(p[2]),'sys':float(p[3]),'rss':int(p[4])/1024}
    for k,v in re.findall(r'(\w+)=(\S+)',line): d[k]=v
    m=re.search(r'c2std=(\d+)m/(\d+)B c2osr=(\d+)m/(\d+)B',line)
    if m: d['c2kb']=(int(m.group(2))+int(m.group(4)))/1024; d['c2n']=int(m.group(1))+int(m.group(3))
    rows[p[0]].append(d)
def med(v): v=[x for x in v if x is not None]; return st.median(v) if v else float('nan')
print('%-9s %2s %8s %8s %7s %8s %8s %8s %9s %s'%('variant','n','wall s','user s','cpu s','RSS MB','C2 s','C2 KB','C2 meth','loads'))
for k,v in rows.items():
    skip=int(sys.argv[2]) if len(sys.argv)>2 and k in sys.argv[3:] else 0
    v=v[skip:]
    print('%-9s %2d %8.2f %8.2f %7.2f %8.0f %8.2f %8.0f %9.0f %s'%(k,len(v),med([x['wall'] for x in v]),med([x['user'] for x in v]),med([x['user']+x['sys'] for x in v]),med([x['rss'] for x in v]),
      med([float(x['c2']) if x.get('c2') else None for x in v]),med([x.get('c2kb') for x in v]),med([x.get('c2n') for x in v]),'/'.join(x['load'] for x in v)))
