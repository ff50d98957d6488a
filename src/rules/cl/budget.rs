//! The connection budget of a cluster (CL090, CL091): what the engine sees.
//! Without a proxy every service instance opens its own pool, so the budget
//! is Σ instances × (pool_size + max_overflow). With a proxy the services talk
//! to the proxy and only the proxy's server pools reach the engine, so the
//! budget is server_pool_size × proxy instances.
use super::common::{int_at, node, str_at};
use crate::contracts::Contract;
use crate::contracts::units::thousands;

/// One service's pool as declared under `connections.pools`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pool {
    pub service: String,
    pub instances: i64,
    pub pool_size: i64,
    pub max_overflow: i64,
}

/// The engine-side connection count and how it was reached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Budget {
    pub total: i128,
    /// `orders-api 12×(20+5) + billing 8×(60+0)` or `pgbouncer paired: 2×200`.
    pub breakdown: String,
}

/// Why a budget cannot be computed; each is reported by CL090.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unknown {
    /// A pool without `instances` or `pool_size` (index, service).
    Pool(usize, String),
    /// A proxy without `server_pool_size`.
    ServerPool,
}

/// Proxy processes: the explicit `instances`, else by HA mode (single 1,
/// paired 2, per-az 3 — three zones is the common regional layout).
pub fn proxy_instances(ha: Option<&str>, instances: Option<i64>) -> i64 {
    instances.unwrap_or(match ha {
        Some("paired") => 2,
        Some("per-az") => 3,
        _ => 1,
    })
}

pub fn direct(pools: &[Pool]) -> Budget {
    // Saturating: absurd declared sizes must still compare as "too many",
    // not overflow.
    let total = pools
        .iter()
        .map(|p| i128::from(p.instances) * (i128::from(p.pool_size) + i128::from(p.max_overflow)))
        .fold(0i128, i128::saturating_add);
    let breakdown = pools
        .iter()
        .map(|p| {
            format!(
                "{} {}×({}+{})",
                p.service,
                thousands(p.instances.into()),
                thousands(p.pool_size.into()),
                thousands(p.max_overflow.into())
            )
        })
        .collect::<Vec<_>>()
        .join(" + ");
    Budget { total, breakdown }
}

pub fn proxied(kind: &str, ha: &str, instances: i64, server_pool_size: i64) -> Budget {
    Budget {
        total: i128::from(instances) * i128::from(server_pool_size),
        breakdown: format!(
            "{kind} {ha}: {}×{} server connections",
            thousands(instances.into()),
            thousands(server_pool_size.into())
        ),
    }
}

/// The pools as declared, or the first one that cannot be summed.
pub fn pools(c: &Contract) -> Result<Vec<Pool>, Unknown> {
    let mut out = Vec::new();
    let Some(list) = node(c, "/spec/connections/pools") else {
        return Ok(out);
    };
    for (i, _) in list.as_seq().iter().enumerate() {
        let at = |k: &str| format!("/spec/connections/pools/{i}/{k}");
        let service = str_at(c, &at("service")).unwrap_or("(unnamed)").to_string();
        match (int_at(c, &at("instances")), int_at(c, &at("pool_size"))) {
            (Some(instances), Some(pool_size)) => out.push(Pool {
                service,
                instances,
                pool_size,
                max_overflow: int_at(c, &at("max_overflow")).unwrap_or(0),
            }),
            _ => return Err(Unknown::Pool(i, service)),
        }
    }
    Ok(out)
}

/// The budget of a cluster's connection contract.
pub fn of(c: &Contract) -> Result<Budget, Unknown> {
    if node(c, "/spec/connections/proxy").is_some() {
        let kind = str_at(c, "/spec/connections/proxy/kind").unwrap_or("proxy");
        let ha = str_at(c, "/spec/connections/proxy/ha");
        let instances = proxy_instances(ha, int_at(c, "/spec/connections/proxy/instances"));
        let size =
            int_at(c, "/spec/connections/proxy/server_pool_size").ok_or(Unknown::ServerPool)?;
        return Ok(proxied(kind, ha.unwrap_or("single"), instances, size));
    }
    Ok(direct(&pools(c)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(service: &str, instances: i64, pool_size: i64, max_overflow: i64) -> Pool {
        Pool {
            service: service.into(),
            instances,
            pool_size,
            max_overflow,
        }
    }

    #[test]
    fn direct_budget_sums_every_instance_with_overflow() {
        let b = direct(&[pool("orders-api", 12, 20, 5), pool("billing", 8, 60, 0)]);
        assert_eq!(b.total, 12 * 25 + 8 * 60);
        assert_eq!(b.breakdown, "orders-api 12×(20+5) + billing 8×(60+0)");
        assert_eq!(direct(&[]).total, 0);
    }

    #[test]
    fn proxy_budget_counts_server_pools_not_clients() {
        assert_eq!(proxy_instances(Some("single"), None), 1);
        assert_eq!(proxy_instances(Some("paired"), None), 2);
        assert_eq!(proxy_instances(Some("per-az"), None), 3);
        assert_eq!(proxy_instances(Some("per-az"), Some(4)), 4);
        assert_eq!(proxy_instances(None, None), 1);
        let b = proxied("pgbouncer", "per-az", 3, 400);
        assert_eq!(b.total, 1200);
        assert_eq!(b.breakdown, "pgbouncer per-az: 3×400 server connections");
    }

    #[test]
    fn large_fleets_do_not_overflow() {
        let huge = pool("fleet", i64::MAX, i64::MAX, i64::MAX);
        let b = direct(&[huge.clone(), huge.clone(), huge]);
        assert_eq!(b.total, i128::MAX);
    }
}
