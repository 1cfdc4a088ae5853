# Simulated whole-row A/As under compare-commits' judgement of a row by its processes (RepetitionRatio,
# RowComparison.judgeRepetitions): how often a row is left noisy, or falsely regressed/improved, when a
# row still noisy at 8 pairs stops (cap 8) or runs on to 16. Usage: python3 THIS bi,norm 8,16 30000
# (bi: processes fast 120 ns with p 0.4 else 205 ns; norm: log-normal spread 5%; heavy: t3).
import numpy as np, math
import sys
KINDS=sys.argv[1].split(",");CAPS=[int(x) for x in sys.argv[2].split(",")];TT=int(sys.argv[3])
from scipy import stats
rng=np.random.default_rng(1)
def judge(d):
    n=len(d); tr=int(n*0.2) if n>=10 else 0
    if tr>0:
        s=np.sort(d); kept=n-2*tr; mean=s[tr:n-tr].mean(); w=np.clip(s,s[tr],s[n-tr-1]); sp=w.std(ddof=1)
        se=math.sqrt((n-1)*sp*sp/(kept*(kept-1))); df=kept-1; ps=se*math.sqrt(n)/math.sqrt(2)
    else:
        mean=d.mean(); sp=d.std(ddof=1); se=sp/math.sqrt(n); df=n-1; ps=sp/math.sqrt(2)
    nu=max(1,df); bound=ps*math.sqrt(nu/stats.chi2.ppf(0.25,nu))
    av=math.sqrt(5/n) if n>5 else 1
    th=max(0.05,3*(math.exp(bound*av)-1))
    t95=stats.t.ppf(0.975,math.floor(df)); t99=stats.t.ppf(0.995,math.floor(df))
    r=math.exp(mean); lo,hi=math.exp(mean-t95*se),math.exp(mean+t95*se)
    c,dd=math.exp(mean-t99*se),math.exp(mean+t99*se)
    if n>=8 and r>=1+0.75*th and c>1+th/2: return 'R'
    if n>=8 and r<=1-0.75*th and dd<1-th/2: return 'I'
    if lo>=1-th and hi<=1+th: return 'U'
    return 'N'
def proc(kind):
    if kind=='bi': return (math.log(120) if rng.random()<0.4 else math.log(205))+rng.normal(0,0.03)
    if kind=='norm': return rng.normal(0,0.05)
    if kind=='heavy': return rng.standard_t(3)*0.05
for kind in KINDS:
    for cap in CAPS:
        res={'R':0,'I':0,'U':0,'N':0}; T=TT
        for _ in range(T):
            d=[proc(kind)-proc(kind) for _ in range(8)]
            v=judge(np.array(d))
            while v=='N' and len(d)<cap:
                d.append(proc(kind)-proc(kind)); v=judge(np.array(d))
            res[v]+=1
        print(kind,cap,{k:v/T for k,v in res.items()})
