//! The object and composition keywords of the JSON Schema comparison:
//! properties under open and closed content models, `required`, `items`,
//! and `anyOf`/`oneOf`/`allOf` branches.
use super::Policy;
use super::json::Json;
use super::jsonschema::{Cmp, S, at, join};

impl<'a> Cmp<'a> {
    pub(super) fn object(&mut self, o: &'a Json, n: &'a Json, path: &str) {
        let (oa, na) = (self.additional(true, o), self.additional(false, n));
        let props_span = at(S::Obj(n), "properties", n.label());
        let oprops = o.get("properties").map_or(&[][..], Json::members);
        let nprops = n.get("properties").map_or(&[][..], Json::members);
        let lenient = self.policy == Policy::Lenient;
        for (name, key, np) in nprops {
            let p = join(path, name);
            let nv = self.view(false, np);
            match oprops.iter().find(|(k, _, _)| k == name) {
                Some((_, _, op)) => {
                    let ov = self.view(true, op);
                    self.node(ov, nv, *key, &p);
                }
                None => match oa {
                    S::Any if lenient || matches!(nv, S::Any) => {}
                    S::Any => self.push(
                        &p,
                        "property added to an open content model (old data may hold any value under this name)".into(),
                        *key,
                        true,
                        false,
                    ),
                    S::Nothing => self.push(
                        &p,
                        "property added to a closed content model (old readers reject it)".into(),
                        *key,
                        false,
                        true,
                    ),
                    S::Obj(_) => self.node(oa, nv, *key, &p),
                },
            }
        }
        for (name, _, op) in oprops {
            if nprops.iter().any(|(k, _, _)| k == name) {
                continue;
            }
            let p = join(path, name);
            let ov = self.view(true, op);
            match na {
                S::Any if lenient || matches!(ov, S::Any) => {}
                S::Any => self.push(
                    &p,
                    "property removed from an open content model (new data may hold any value under this name)".into(),
                    props_span,
                    false,
                    true,
                ),
                S::Nothing => self.push(
                    &p,
                    "property removed from a closed content model (old data holding it is rejected)".into(),
                    props_span,
                    true,
                    false,
                ),
                S::Obj(_) => self.node(ov, na, props_span, &p),
            }
        }
        self.required(o, n, path);
        let add_span = at(S::Obj(n), "additionalProperties", props_span);
        match (oa, na) {
            (S::Any, S::Nothing) => self.push(
                path,
                "content model closed (`additionalProperties: false`)".into(),
                add_span,
                true,
                false,
            ),
            (S::Nothing, S::Any) => self.push(
                path,
                "content model opened (`additionalProperties` no longer false)".into(),
                add_span,
                false,
                true,
            ),
            _ => self.node(oa, na, add_span, &join(path, "<additionalProperties>")),
        }
    }

    pub(super) fn required(&mut self, o: &Json, n: &Json, path: &str) {
        let req = |j: &Json| -> Vec<String> {
            j.get("required")
                .and_then(Json::as_arr)
                .map(|a| {
                    a.iter()
                        .filter_map(|s| s.as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default()
        };
        let (or, nr) = (req(o), req(n));
        let span = at(S::Obj(n), "required", n.label());
        for name in nr.iter().filter(|r| !or.contains(r)) {
            self.push(
                &join(path, name),
                "property became required".into(),
                span,
                true,
                false,
            );
        }
        for name in or.iter().filter(|r| !nr.contains(r)) {
            self.push(
                &join(path, name),
                "property is no longer required".into(),
                span,
                false,
                true,
            );
        }
    }

    pub(super) fn items(&mut self, o: &'a Json, n: &'a Json, path: &str) {
        let (oi, ni) = (o.get("items"), n.get("items"));
        if oi.is_none() && ni.is_none() {
            return;
        }
        let span = at(S::Obj(n), "items", n.label());
        let view = |c: &Self, old: bool, j: Option<&'a Json>| j.map_or(S::Any, |j| c.view(old, j));
        let (ov, nv) = (view(self, true, oi), view(self, false, ni));
        self.node(ov, nv, span, &format!("{path}[]"));
    }

    pub(super) fn combinator(&mut self, o: &'a Json, n: &'a Json, key: &str, path: &str) {
        let (ob, nb) = (
            o.get(key).and_then(Json::as_arr).unwrap_or(&[]),
            n.get(key).and_then(Json::as_arr).unwrap_or(&[]),
        );
        let removed: Vec<&Json> = ob
            .iter()
            .filter(|b| !nb.iter().any(|x| x.text() == b.text()))
            .collect();
        let added: Vec<&Json> = nb
            .iter()
            .filter(|b| !ob.iter().any(|x| x.text() == b.text()))
            .collect();
        let span = at(S::Obj(n), key, n.label());
        if removed.len() == 1 && added.len() == 1 {
            let (ov, nv) = (self.view(true, removed[0]), self.view(false, added[0]));
            return self.node(ov, nv, added[0].span, &format!("{path}.{key}"));
        }
        // Fewer anyOf/oneOf branches accept less; fewer allOf branches constrain less.
        let shrink_narrows = key != "allOf";
        if !removed.is_empty() {
            let change = format!("{} `{key}` branch(es) removed", removed.len());
            self.push(path, change, span, shrink_narrows, !shrink_narrows);
        }
        if !added.is_empty() {
            let change = format!("{} `{key}` branch(es) added", added.len());
            self.push(path, change, span, !shrink_narrows, shrink_narrows);
        }
    }
}
