//! The assembler: lines of freedreno syntax to instruction words, with labels
//! (`name:`), branch targets by label or offset (`#name`, `#-4`), comments
//! (`;` to the end of the line) and raw words (`raw 0x...`).

use std::collections::HashMap;

use crate::encoding::encode;
use crate::error::AsmError;
use crate::gen::IsaGen;
use crate::instr::Op;
use crate::text::cursor::{Cursor, ParseError};
use crate::text::{parse_instr, Parsed, Target};

fn error(line: usize, text: &str, pos: usize, message: impl Into<String>) -> AsmError {
    AsmError {
        line,
        column: text[..pos.min(text.len())].chars().count() + 1,
        message: message.into(),
    }
}

/// Assembles a program. Errors carry the 1-based line and column.
pub fn assemble(source: &str, generation: IsaGen) -> Result<Vec<u64>, AsmError> {
    // The instructions with their line, column and unresolved target.
    let mut items: Vec<(usize, &str, usize, Parsed, Option<Target>)> = Vec::new();
    let mut labels: HashMap<String, usize> = HashMap::new();
    for (n, full) in source.lines().enumerate() {
        let line_no = n + 1;
        let text = match full.find(';') {
            Some(i) => &full[..i],
            None => full,
        };
        let mut c = Cursor::new(text);
        c.skip_ws();
        if c.at_end() {
            continue;
        }
        if c.peek() == Some('@') {
            return Err(error(
                line_no,
                text,
                c.pos(),
                "directives (`@...`) are not supported",
            ));
        }
        // A label: a name followed by `:`.
        let save = c.pos();
        let name = c.take_while(|ch| ch.is_ascii_alphanumeric() || ch == '_');
        if !name.is_empty() && c.eat(":") {
            if name.starts_with(|ch: char| ch.is_ascii_digit()) {
                return Err(error(
                    line_no,
                    text,
                    save,
                    "a label starts with a letter or `_`",
                ));
            }
            if labels.insert(name.to_string(), items.len()).is_some() {
                return Err(error(
                    line_no,
                    text,
                    save,
                    format!("label `{name}` defined twice"),
                ));
            }
            c.skip_ws();
            if c.at_end() {
                continue;
            }
        } else {
            c.set_pos(save);
        }
        let start = c.pos();
        match parse_instr(&mut c, generation) {
            Ok(Parsed::Instr(instr, target)) => {
                items.push((line_no, text, start, Parsed::Instr(instr, None), target))
            }
            Ok(raw) => items.push((line_no, text, start, raw, None)),
            Err(ParseError { pos, message }) => return Err(error(line_no, text, pos, message)),
        }
    }
    let mut words = Vec::with_capacity(items.len());
    for (index, (line_no, text, start, parsed, target)) in items.into_iter().enumerate() {
        let mut instr = match parsed {
            Parsed::Raw(w) => {
                words.push(w);
                continue;
            }
            Parsed::Instr(instr, _) => instr,
        };
        if let (Some(t), Op::Flow(f)) = (target, &mut instr.op) {
            f.target = match t {
                Target::Offset(v) => v,
                Target::Label(name, pos) => match labels.get(&name) {
                    Some(&to) => to as i32 - index as i32,
                    None => {
                        return Err(error(line_no, text, pos, format!("unknown label `{name}`")))
                    }
                },
            };
        }
        let word =
            encode(&instr, generation).map_err(|e| error(line_no, text, start, e.message))?;
        words.push(word);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_resolve_forwards_and_backwards() {
        let src = "
            ; a loop
            top:
            (jp)add.u r0.x, r0.x, 1
            br p0.x, #top        ; back to the add
            jump #out
            nop
            out: end
        ";
        let words = assemble(src, IsaGen::A6xx).unwrap();
        assert_eq!(words.len(), 5);
        // br at index 1 jumps to 0; jump at 2 to 4. The immediates are the
        // low 32 bits of the word (freedreno's `IMMED`).
        assert_eq!(words[1] as u32 as i32, -1);
        assert_eq!(words[2] as u32 as i32, 2);
        // The same branches written as offsets assemble the same.
        let offsets = "(jp)add.u r0.x, r0.x, 1\nbr p0.x, #-1\njump #2\nnop\nend";
        assert_eq!(assemble(offsets, IsaGen::A6xx).unwrap(), words);
    }

    #[test]
    fn raw_words_pass_through() {
        assert_eq!(
            assemble("raw 0xFFFFFFFFFFFFFFFF", IsaGen::A6xx).unwrap(),
            [u64::MAX]
        );
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = assemble("nop\n  add.f r0.x, r0.y, q1.x\n", IsaGen::A6xx).unwrap_err();
        assert_eq!((e.line, e.column), (2, 21), "{e}");
        let e = assemble("br p0.x, #nowhere", IsaGen::A6xx).unwrap_err();
        assert_eq!((e.line, e.column), (1, 11));
        assert!(e.message.contains("nowhere"));
        let e = assemble("x:\nx: nop", IsaGen::A6xx).unwrap_err();
        assert_eq!((e.line, e.column), (2, 1));
        let e = assemble("lock", IsaGen::A6xx).unwrap_err();
        assert!(e.message.contains("a6xx"), "{e}");
        // An operand that does not fit its field is refused by the encoder,
        // at the start of the instruction.
        let e = assemble("  (rpt1)kill p0.x", IsaGen::A6xx).unwrap_err();
        assert_eq!((e.line, e.column), (1, 3), "{e}");
        assert_eq!(
            e.to_string(),
            format!("1:3: {}", e.message),
            "line:column: message"
        );
    }
}
