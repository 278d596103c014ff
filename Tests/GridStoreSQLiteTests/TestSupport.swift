@_exported import GridStoreAudit
@_exported import TestSupport
