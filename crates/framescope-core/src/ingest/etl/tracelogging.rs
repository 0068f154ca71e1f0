//! TraceLogging: self-describing events whose schema travels with each event in the
//! `EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL` (11) extended data item, and whose provider
//! name travels in `EVENT_HEADER_EXT_TYPE_PROV_TRAITS` (12). The layout is the one
//! `TraceLoggingProvider.h` writes: `u16` size, tag bytes (high bit: another follows),
//! the UTF-8 event name, then per field its name, an in-type byte (bits 0–4 the type,
//! 5–6 the count kind, 7: an out-type byte follows), an optional out-type byte (bit 7:
//! tag bytes follow), and a `u16` count for fixed-count and custom fields. A struct
//! (in-type 24, or the old form: in-type 0 with a fixed count) has as many member
//! fields as its out-type (or count) says, which follow it.

use super::records::Guid;

/// The extended data item that holds a TraceLogging event's schema.
pub const EXT_SCHEMA_TL: u16 = 11;
/// The extended data item that holds the provider's name (and traits).
pub const EXT_PROVIDER_TRAITS: u16 = 12;

/// Nesting and value limits: a damaged schema cannot make decoding deep or long.
const MAX_DEPTH: usize = 16;
const MAX_VALUES: usize = 1 << 16;

/// How many values a field holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Count {
    /// One value.
    Scalar,
    /// An array whose length is in the schema.
    Fixed(u16),
    /// An array whose length (`u16`) precedes it in the payload.
    Variable,
}

/// One field of a schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// The field's name.
    pub name: String,
    /// The in-type (`TlgIn*`, bits 0–4).
    pub in_type: u8,
    /// The out-type (formatting hint), 0 when absent.
    pub out_type: u8,
    /// Scalar or array.
    pub count: Count,
    /// The members of a struct field.
    pub members: Vec<Field>,
}

/// A TraceLogging event's schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schema {
    /// The event's name.
    pub name: String,
    /// Its fields, in payload order.
    pub fields: Vec<Field>,
}

/// A decoded value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// Signed integers.
    I64(i64),
    /// Unsigned integers (also hex ints, pointers, FILETIME).
    U64(u64),
    /// FLOAT and DOUBLE.
    F64(f64),
    /// BOOL32.
    Bool(bool),
    /// Strings of every kind.
    Str(String),
    /// BINARY, COUNTEDBINARY, SID.
    Bytes(Vec<u8>),
    /// GUID.
    Guid(Guid),
    /// SYSTEMTIME's eight fields.
    SystemTime([u16; 8]),
    /// An array.
    Array(Vec<Value>),
    /// A struct's members.
    Struct(Vec<(String, Value)>),
}

struct Cursor<'a> {
    b: &'a [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let s = self
            .b
            .get(self.pos..self.pos + n)
            .ok_or_else(|| format!("ends early (byte {} of {})", self.pos, self.b.len()))?;
        self.pos += n;
        Ok(s)
    }

    fn u8(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }

    fn u16(&mut self) -> Result<u16, String> {
        let s = self.take(2)?;
        Ok(u16::from_le_bytes([s[0], s[1]]))
    }

    fn cstr(&mut self) -> Result<String, String> {
        let rest = self.b.get(self.pos..).unwrap_or_default();
        let len = rest.iter().position(|&c| c == 0).ok_or("a name has no terminating NUL")?;
        let s = String::from_utf8_lossy(&rest[..len]).into_owned();
        self.pos += len + 1;
        Ok(s)
    }

    fn skip_tags(&mut self) -> Result<(), String> {
        while self.u8()? & 0x80 != 0 {}
        Ok(())
    }

    fn done(&self) -> bool {
        self.pos >= self.b.len()
    }
}

/// The provider name from a `PROV_TRAITS` item: `u16` size, then the UTF-8 name.
#[must_use]
pub fn provider_name(traits: &[u8]) -> Option<String> {
    let mut c = Cursor {
        b: traits.get(..usize::from(u16::from_le_bytes([*traits.first()?, *traits.get(1)?])))?,
        pos: 2,
    };
    c.cstr().ok()
}

impl Schema {
    /// Parses an `EVENT_SCHEMA_TL` item.
    pub fn parse(meta: &[u8]) -> Result<Self, String> {
        let mut c = Cursor { b: meta, pos: 0 };
        let size = usize::from(c.u16()?);
        if size < 4 || size > meta.len() {
            return Err(format!("the schema states {size} bytes but holds {}", meta.len()));
        }
        c.b = &meta[..size];
        c.skip_tags()?;
        let name = c.cstr()?;
        let fields = fields(&mut c, usize::MAX, 0)?;
        Ok(Self { name, fields })
    }

    /// Decodes a payload by the schema: `(field name, value)` in order. Bytes after
    /// the last field are ignored.
    pub fn decode(&self, payload: &[u8], pointer_size: usize) -> Result<Vec<(String, Value)>, String> {
        let mut d = Decoder { c: Cursor { b: payload, pos: 0 }, pointer_size, values: 0 };
        self.fields.iter().map(|f| Ok((f.name.clone(), d.field(f)?))).collect()
    }
}

/// Reads up to `max` fields (all that are left when `usize::MAX`).
fn fields(c: &mut Cursor<'_>, max: usize, depth: usize) -> Result<Vec<Field>, String> {
    if depth > MAX_DEPTH {
        return Err("structs nest too deep".into());
    }
    let mut out = Vec::new();
    while out.len() < max && !c.done() {
        let name = c.cstr()?;
        let raw_in = c.u8()?;
        let mut out_type = 0;
        if raw_in & 0x80 != 0 {
            out_type = c.u8()?;
            if out_type & 0x80 != 0 {
                c.skip_tags()?;
            }
            out_type &= 0x7F;
        }
        let mut in_type = raw_in & 0x1F;
        let mut count = match raw_in & 0x60 {
            0x00 => Count::Scalar,
            0x40 => Count::Variable,
            flags => {
                let n = c.u16()?;
                if flags == 0x60 {
                    c.take(usize::from(n))?;
                    return Err(format!("field '{name}' has a custom type, which is not read"));
                }
                Count::Fixed(n)
            }
        };
        if in_type == 0 && count != Count::Scalar {
            // The old struct encoding: in-type 0, member count in the count.
            if let Count::Fixed(n) = count {
                out_type = n.min(127) as u8;
            }
            (in_type, count) = (24, Count::Scalar);
        }
        let members = if in_type == 24 { fields(c, usize::from(out_type), depth + 1)? } else { Vec::new() };
        out.push(Field { name, in_type, out_type, count, members });
    }
    if max != usize::MAX && out.len() < max {
        return Err(format!("a struct announces {max} members but the schema holds {}", out.len()));
    }
    Ok(out)
}

struct Decoder<'a> {
    c: Cursor<'a>,
    pointer_size: usize,
    values: usize,
}

impl Decoder<'_> {
    fn field(&mut self, f: &Field) -> Result<Value, String> {
        let n = match f.count {
            Count::Scalar => return self.one(f),
            Count::Fixed(n) => n,
            Count::Variable => self.c.u16()?,
        };
        (0..n).map(|_| self.one(f)).collect::<Result<_, _>>().map(Value::Array)
    }

    fn one(&mut self, f: &Field) -> Result<Value, String> {
        self.values += 1;
        if self.values > MAX_VALUES {
            return Err("too many values".into());
        }
        let c = &mut self.c;
        let le = |s: &[u8]| s.iter().rev().fold(0u64, |v, &b| (v << 8) | u64::from(b));
        let signed = |s: &[u8]| {
            let bits = 64 - 8 * s.len() as u32;
            ((le(s) << bits) as i64) >> bits
        };
        Ok(match f.in_type {
            1 => Value::Str(utf16_until_nul(c)?),
            2 => Value::Str(c.cstr()?),
            3 | 5 | 7 | 9 => Value::I64(signed(c.take(1 << ((f.in_type - 3) / 2))?)),
            4 | 6 | 8 | 10 => Value::U64(le(c.take(1 << ((f.in_type - 4) / 2))?)),
            11 => Value::F64(f64::from(f32::from_bits(le(c.take(4)?) as u32))),
            12 => Value::F64(f64::from_bits(le(c.take(8)?))),
            13 => Value::Bool(le(c.take(4)?) != 0),
            14 | 25 => {
                let n = c.u16()?;
                Value::Bytes(c.take(usize::from(n))?.to_vec())
            }
            15 => Value::Guid(Guid::at(c.take(16)?, 0).unwrap_or_default()),
            16 => Value::U64(le(c.take(self.pointer_size)?)),
            17 | 21 => Value::U64(le(c.take(8)?)),
            20 => Value::U64(le(c.take(4)?)),
            18 => {
                let s = c.take(16)?;
                Value::SystemTime(std::array::from_fn(|i| u16::from_le_bytes([s[2 * i], s[2 * i + 1]])))
            }
            19 => {
                let head = c.take(8)?;
                let tail = c.take(4 * usize::from(head[1]))?;
                Value::Bytes([head, tail].concat())
            }
            22 => {
                let n = c.u16()?;
                let s = c.take(usize::from(n) & !1)?;
                Value::Str(String::from_utf16_lossy(
                    &s.chunks_exact(2).map(|p| u16::from_le_bytes([p[0], p[1]])).collect::<Vec<_>>(),
                ))
            }
            23 => {
                let n = c.u16()?;
                Value::Str(String::from_utf8_lossy(c.take(usize::from(n))?).into_owned())
            }
            24 => Value::Struct(
                f.members
                    .iter()
                    .map(|m| Ok((m.name.clone(), self.field(m)?)))
                    .collect::<Result<_, String>>()?,
            ),
            t => return Err(format!("field '{}' has an unknown type {t}", f.name)),
        })
    }
}

fn utf16_until_nul(c: &mut Cursor<'_>) -> Result<String, String> {
    let mut units = Vec::new();
    loop {
        let s = c.take(2)?;
        let u = u16::from_le_bytes([s[0], s[1]]);
        if u == 0 {
            return Ok(String::from_utf16_lossy(&units));
        }
        units.push(u);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The schema `TraceLoggingWrite(p, "PCLStatsEventV2", UInt32 Marker, UInt64 FrameID,
    /// UInt32 Flags)` writes, by hand.
    fn v2_schema() -> Vec<u8> {
        let mut body = vec![0u8]; // one tag byte, no chain
        body.extend_from_slice(b"PCLStatsEventV2\0Marker\0\x08FrameID\0\x0AFlags\0\x08");
        let mut m = ((body.len() + 2) as u16).to_le_bytes().to_vec();
        m.extend_from_slice(&body);
        m
    }

    #[test]
    fn pcl_v2_schema_and_payload() {
        let s = Schema::parse(&v2_schema()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.name, "PCLStatsEventV2");
        let names: Vec<&str> = s.fields.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["Marker", "FrameID", "Flags"]);
        let mut p = 4u32.to_le_bytes().to_vec();
        p.extend_from_slice(&1234u64.to_le_bytes());
        p.extend_from_slice(&1u32.to_le_bytes());
        let v = s.decode(&p, 8).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(v[0].1, Value::U64(4));
        assert_eq!(v[1].1, Value::U64(1234));
        assert_eq!(v[2].1, Value::U64(1));
        // A payload one byte short is an error, never a panic.
        assert!(s.decode(&p[..p.len() - 1], 8).is_err());
    }

    #[test]
    fn signed_and_struct() {
        // Struct "a" of 2 members (in-type 24 with chain, out-type 2), an INT8 and an ANSI string.
        let mut body = b"\0E\0a\0".to_vec();
        body.extend_from_slice(&[0x18 | 0x80, 2]);
        body.extend_from_slice(b"x\0\x03y\0\x02");
        let mut m = ((body.len() + 2) as u16).to_le_bytes().to_vec();
        m.extend_from_slice(&body);
        let s = Schema::parse(&m).unwrap_or_else(|e| panic!("{e}"));
        let v = s.decode(&[0xFE, b'h', b'i', 0], 8).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            v[0].1,
            Value::Struct(vec![("x".into(), Value::I64(-2)), ("y".into(), Value::Str("hi".into()))])
        );
    }
}
