//! The page's stylesheet: readable on a phone (nothing wider than the screen: long words
//! break, wide lines scroll inside their own box), printable, and scoped under the
//! `.conditions` class so that an embedding page keeps its own styles.

/// The stylesheet of the page, for an embedder's `<style>` element around a fragment.
pub const STYLE: &str = r#".conditions{font-family:Georgia,"Times New Roman",serif;font-size:1.0625rem;line-height:1.5;color:#1b1b1b;background:#fff;max-width:46rem;margin:0 auto;padding:.5rem 1rem 2rem;overflow-wrap:anywhere;-webkit-text-size-adjust:100%;text-size-adjust:100%}
.conditions *{box-sizing:border-box}
.conditions h1{font-size:1.45rem;line-height:1.25;margin:1rem 0 .25rem}
.conditions h2{font-size:1.25rem;line-height:1.3;margin:0 0 .25rem}
.conditions h3{font-size:1.05rem;margin:1.4rem 0 .4rem;border-bottom:1px solid #ddd}
.conditions h4{font-size:1rem;margin:1rem 0 .2rem}
.conditions a{color:#1a4f8b}
.conditions code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.88em;background:#f0f0f0;padding:0 .2em;border-radius:3px}
.conditions ul,.conditions ol{padding-left:1.3rem;margin:.3rem 0}
.conditions li{margin:.2rem 0}
.conditions .book{font-style:italic;color:#444;margin:.1rem 0 .6rem}
.conditions .meta{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.1rem .8rem;margin:.5rem 0 1rem}
.conditions .meta dt{font-weight:bold}
.conditions .meta dd{margin:0}
.conditions .contents{border:1px solid #ddd;border-radius:6px;padding:.5rem 1rem;margin:1rem 0 1.5rem;background:#fafafa}
.conditions .contents h2{font-size:1.05rem;margin:0}
.conditions .contents .sum{color:#444}
.conditions .ruling{margin:1.5rem 0 2.5rem}
.conditions .ruling+.ruling{border-top:3px double #bbb;padding-top:1.2rem}
.conditions .answer{font-size:1.2rem;margin:.6rem 0;padding:.6rem .9rem;border-left:5px solid #2a7a46;background:#eef8f1}
.conditions .answer .label{display:block;font-size:.8rem;text-transform:uppercase;letter-spacing:.05em;color:#444}
.conditions .undetermined .answer{border-color:#b86e00;background:#fdf5e8}
.conditions .silent .answer{border-color:#777;background:#f4f4f4}
.conditions .error .answer{border-color:#b3261e;background:#fbeeee}
.conditions .needs li{font-weight:bold}
.conditions .working{list-style:none;padding-left:0}
.conditions .working>li{margin:.6rem 0}
.conditions .working>li>ul{list-style:none;padding-left:.9rem;border-left:3px solid #e3e3e3;margin:.2rem 0}
.conditions .working .value{font-weight:bold}
.conditions .working .no,.conditions .working .waits{color:#5a5a5a}
.conditions .cite{white-space:nowrap;font-size:.9em}
.conditions .facts .value{font-weight:bold}
.conditions .clause{margin:.8rem 0 1.2rem}
.conditions .clause h4 .heading{font-weight:normal;font-style:italic}
.conditions blockquote{margin:.3rem 0;padding:.4rem .9rem;border-left:3px solid #888;background:#f6f6f6;white-space:pre-line}
.conditions .gloss{margin:.3rem 0 0;padding:0 .9rem;color:#3d3d3d;font-style:italic}
.conditions .gloss .label{font-style:normal;font-weight:bold}
.conditions details{margin:1.2rem 0;border:1px solid #ddd;border-radius:6px;padding:.4rem .8rem}
.conditions summary{cursor:pointer;font-weight:bold;padding:.2rem 0}
.conditions .tree{font-size:.95em}
.conditions .tree ul{padding-left:1rem}
.conditions .tree .no{color:#5a5a5a}
.conditions .back{font-size:.9em;margin:.5rem 0 0}
.conditions .scroll{overflow-x:auto;max-width:100%}
.conditions .table-scroll{overflow-x:auto;max-width:100%;margin:.3rem 0}
.conditions .working-table{border-collapse:collapse;font-size:.92em;overflow-wrap:normal}
.conditions .table-caption{font-style:italic;margin:.2rem 0 0}
.conditions .working-table caption{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
.conditions .working-table th,.conditions .working-table td{padding:.15rem .4rem;border-bottom:1px solid #e3e3e3;text-align:left;vertical-align:top}
.conditions .working-table .num{text-align:right;font-variant-numeric:tabular-nums}
.conditions .working-table td{white-space:nowrap}
.conditions .working-table tr.decides{background:#fff3bf}
.conditions .working-table mark,.conditions .table-caption mark{background:none;color:#7a4b00}
.conditions .working-table th{hyphens:auto;-webkit-hyphens:auto;min-width:5em}
@media print{
.conditions{font-size:11pt;max-width:none;padding:0;color:#000}
.conditions .contents,.conditions details,.conditions .back{display:none}
.conditions .ruling+.ruling{break-before:page}
.conditions .answer{background:none;border:1px solid #000;border-left-width:5px}
.conditions blockquote{background:none}
.conditions .clause,.conditions .answer,.conditions .working>li{break-inside:avoid}
.conditions h2,.conditions h3,.conditions h4{break-after:avoid}
.conditions a{color:inherit;text-decoration:none}
}
"#;
